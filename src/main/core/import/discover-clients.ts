import fs from 'node:fs';
import os from 'node:os';

import type { KnownClient } from '../../../shared/import';
import { appDataDir, joinFor, type PlatformContext } from '../system/app-data-dir';

/** Where each MCP client keeps its config on this OS (documented locations). */
export function knownConfigPaths(context: PlatformContext): { client: KnownClient['client']; path: string }[] {
  const home = context.home ?? os.homedir();
  const appData = appDataDir(context);
  const join = joinFor(context.platform);
  const code = join(appData, 'Code', 'User');
  return [
    { client: 'claude-desktop', path: join(appData, 'Claude', 'claude_desktop_config.json') },
    { client: 'cursor', path: join(home, '.cursor', 'mcp.json') },
    { client: 'vscode', path: join(code, 'mcp.json') },
    { client: 'windsurf', path: join(home, '.codeium', 'windsurf', 'mcp_config.json') },
    { client: 'cline', path: join(code, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json') },
    { client: 'codex', path: join(context.env.CODEX_HOME ?? join(home, '.codex'), 'config.toml') },
    { client: 'xiaozhi-client', path: join(context.env.XIAOZHI_CONFIG_DIR ?? home, 'xiaozhi.config.json') },
  ];
}

export function discoverClients(context: PlatformContext = { platform: process.platform, env: process.env }): KnownClient[] {
  return knownConfigPaths(context).map((known) => ({ ...known, exists: fs.existsSync(known.path) }));
}
