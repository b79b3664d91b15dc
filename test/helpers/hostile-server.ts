import fs from 'node:fs';
import path from 'node:path';
import type { ServerSettings } from '../../src/shared/settings';

export const HOSTILE = path.resolve(__dirname, '../fixtures/hostile-server.mjs');

/** A stdio server that breaks the rules on purpose (test/fixtures/hostile-server.mjs), in the ways its HOSTILE_* `env` says. */
export function hostileWith(name: string, env: Record<string, string>): ServerSettings {
  return { name, transport: 'stdio', command: process.execPath, args: [HOSTILE], env, enabled: true } as ServerSettings;
}

/** A hostile server listing `tools` besides its own; the list is written to `<dir>/<name>-tools.json`. */
export function hostileServer(dir: string, name: string, tools: unknown[]): ServerSettings {
  const toolsFile = path.join(dir, `${name}-tools.json`);
  fs.writeFileSync(toolsFile, JSON.stringify(tools));
  return hostileWith(name, { HOSTILE_TOOLS_FILE: toolsFile });
}
