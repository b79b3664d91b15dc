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

/**
 * A stdio server (a `node -e` script) that answers `initialize` with the JSON-RPC error `code`,
 * "Unsupported protocol version" (with the version asked, when `namesAsked`), speaking only 2099-01-01.
 */
export function refusingInitialize(name: string, code: number, namesAsked = false): ServerSettings {
  const message = namesAsked ? "'Unsupported protocol version: ' + m.params.protocolVersion" : "'Unsupported protocol version'";
  const script = [
    "let buf = '';",
    "process.stdin.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\\n')) >= 0) { const m = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1);",
    `  if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: ${code}, message: ${message}, data: { supported: ['2099-01-01'], requested: m.params.protocolVersion } } }) + '\\n'); } });`,
  ].join('\n');
  return { name, transport: 'stdio', command: process.execPath, args: ['-e', script], enabled: true } as ServerSettings;
}
