import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { FIXTURE } from './bridge-harness';
import { CLI_SCRIPT } from './cli-env';
import { waitFor } from './wait';

/**
 * The headless app (`run --mcp-port 0`, XIAOZHI_TRAY_MCP_TOKEN=TOKEN) serving one fixture server ("notes") as a
 * local MCP server, its state file in `stateDir` (where the desktop app keeps it), for `connect`
 * tests. Resolves once the state file is written and the server runs; stop the child when done.
 */
export async function startLocalServerApp(stateDir: string, token: string): Promise<ChildProcess> {
  const config = path.join(stateDir, 'config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      servers: [{ name: 'notes', transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'notes' } }],
    }),
  );
  const child = spawn(process.execPath, [CLI_SCRIPT, 'run', '--config', config, '--mcp-port', '0'], {
    env: { ...process.env, MCP_ENDPOINT: '', XIAOZHI_TRAY_STATE_DIR: stateDir, XIAOZHI_TRAY_MCP_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await waitFor(
      () => fs.existsSync(path.join(stateDir, 'local-server.json')) && /\] running \(pid/.test(out),
      20_000,
      `the local server\n${out}`,
    );
  } catch (error) {
    child.kill();
    throw error;
  }
  return child;
}
