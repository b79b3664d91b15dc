// Child processes of the conformance run: started, awaited for a line, and always stopped.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const running = new Set();
/** Whatever way this script ends, nothing it started outlives it. */
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** Spawns `command args`, keeping its output (printed when it fails). */
export function start(command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    }),
  );
  return {
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the first match of `pattern` in the process's output; rejects when it exits or time runs out. */
export async function waitForOutput(proc, pattern, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = proc.output().match(pattern);
    if (match) return match;
    if (proc.child.exitCode !== null) throw new Error(`${what} exited:\n${proc.output()}`);
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms:\n${proc.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A temporary folder of our own, removed by `remove()`. */
export function scratch(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The built headless app (`out/cli/index.js run`) with its local MCP server on a free port and the one
 * streamable-HTTP server `serverUrl` behind it; resolves once the hub lists that server's tools.
 */
export async function startHub(root, serverUrl, name = 'conformance') {
  const temp = scratch('xiaozhi-tray-conformance-');
  const config = path.join(temp.dir, 'tray.json');
  const tokenFile = path.join(temp.dir, 'token');
  const token = randomBytes(24).toString('base64url');
  fs.writeFileSync(config, JSON.stringify({ servers: [{ name, transport: 'streamable-http', url: serverUrl }] }), { mode: 0o600 });
  fs.writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const stateDir = path.join(temp.dir, 'state');
  const app = start(
    process.execPath,
    [path.join(root, 'out/cli/index.js'), 'run', '--config', config, '--mcp-port', '0', '--mcp-token-file', tokenFile],
    { cwd: temp.dir, env: { ...process.env, XIAOZHI_TRAY_STATE_DIR: stateDir } },
  );
  const stop = async () => {
    await app.stop();
    temp.remove();
  };
  try {
    const [, url] = await waitForOutput(app, /listening at (http:\/\/\S+\/mcp)\b/, 30_000, 'the headless app');
    await untilToolsListed(url, token, 30_000, app);
    return { url, token, stop, output: app.output };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function untilToolsListed(url, token, timeoutMs, app) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Client({ name: 'conformance-runner', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      if ((await client.listTools()).tools.length > 0) return;
    } catch {
      // not up yet
    } finally {
      await client.close().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error(`the hub lists no tools after ${timeoutMs} ms:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
