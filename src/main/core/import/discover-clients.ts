import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KnownClient } from '../../../shared/import';

export interface DiscoveryContext {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home?: string;
}

const joinFor = (platform: NodeJS.Platform) => (platform === 'win32' ? path.win32.join : path.posix.join);

/** The per-user application data folder (where Electron's userData folders live). */
export function appDataDir(context: DiscoveryContext): string {
  const home = context.home ?? os.homedir();
  const join = joinFor(context.platform);
  return context.platform === 'win32'
    ? (context.env.APPDATA ?? join(home, 'AppData', 'Roaming'))
    : context.platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : (context.env.XDG_CONFIG_HOME ?? join(home, '.config'));
}

/** Where each MCP client keeps its config on this OS (documented locations). */
export function knownConfigPaths(context: DiscoveryContext): { client: KnownClient['client']; path: string }[] {
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

export function discoverClients(context: DiscoveryContext = { platform: process.platform, env: process.env }): KnownClient[] {
  return knownConfigPaths(context).map((known) => ({ ...known, exists: fs.existsSync(known.path) }));
}
