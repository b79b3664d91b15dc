import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { clientToken } from '../../src/main/core/local-server/client-tokens';
import { stateDistrust } from '../../src/main/core/local-server/state-file';
import { isOwnProcess } from '../../src/main/core/servers/process-tree';
import { FIXTURE } from '../helpers/bridge-harness';
import { CLI_SCRIPT, cliEnv } from '../helpers/cli-env';
import { closedAfterEach } from '../helpers/closed-after-each';
import { tempDirs } from '../helpers/temp-dirs';
import { scaled } from '../helpers/time-scale';
import { waitFor } from '../helpers/wait';
import { CliHarness } from './cli-harness';

const TOKEN = 'connect-test-token-0123456789abcdef';
const tempDir = tempDirs('xt-connect-');
const { clients, children } = closedAfterEach();
const cli = new CliHarness();

const fixture = (name: string) => ({ name, transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: name } });

interface App {
  child: ChildProcess;
  output: () => string;
  url: string;
}

/** The headless app with the local server on (`run --mcp-port`), its state file in `stateDir`. */
async function startApp(stateDir: string, port = 0, token = TOKEN): Promise<App> {
  const config = path.join(stateDir, 'config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      servers: [fixture('weather'), fixture('notes')],
      toolSets: [{ name: 'desk', servers: ['notes'] }],
      localServer: { clients: { 'claude-desktop': { toolSet: 'desk' } } },
    }),
  );
  // The token from the environment, as the README says (on the command line, every user sees it).
  const child = spawn(process.execPath, [CLI_SCRIPT, 'run', '--config', config, '--mcp-port', String(port)], {
    env: cliEnv({ XIAOZHI_TRAY_STATE_DIR: stateDir, XIAOZHI_TRAY_MCP_TOKEN: token }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => /Local MCP server[^\n]*\n\s+(http:\/\/127\.0\.0\.1:\d+\/mcp)/.test(out), 20_000, 'the local MCP server to listen');
  const url = (/Local MCP server[^\n]*\n\s+(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out) as RegExpExecArray)[1] as string;
  // Both servers up, so their tools are served (the first tools/list waiting for them is issue 9's).
  await waitFor(() => (out.match(/\] running \(pid/g) ?? []).length >= 2, 20_000, 'both servers to run');
  return { child, output: () => out, url };
}

async function stopApp(app: App): Promise<void> {
  const exited = new Promise((resolve) => app.child.once('exit', resolve));
  app.child.kill('SIGTERM');
  await exited;
}

/** `xiaozhi-tray connect`, as Claude Desktop starts it, driven by the SDK's own stdio Client. */
async function connectClient(
  stateDir: string,
  args: string[] = ['--client', 'claude-desktop'],
  token?: string,
): Promise<{ client: Client; stderr: () => string }> {
  const env = {
    ...(process.env as Record<string, string>),
    XIAOZHI_TRAY_STATE_DIR: stateDir,
    ...(token !== undefined ? { XIAOZHI_TRAY_TOKEN: token } : {}),
  };
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_SCRIPT, 'connect', ...args], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'claude-ai', version: '0.1.0' }, { capabilities: {} });
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** `connect` run by hand: its exit code and what it said. */
function connectOnce(
  stateDir: string,
  args: string[] = [],
  token?: string,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const env = cliEnv({ XIAOZHI_TRAY_STATE_DIR: stateDir, ...(token !== undefined ? { XIAOZHI_TRAY_TOKEN: token } : {}) });
    const child = spawn(process.execPath, [CLI_SCRIPT, 'connect', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

/**
 * `connect` as a client starts it, sending initialize at once; ends its stdin when it exits or
 * `sent()` says the request went out, so a connect that relays does not wait for ever.
 */
async function connectAndInitialize(
  stateDir: string,
  args: string[],
  token: string,
  sent: () => boolean,
): Promise<{ code: number | null; stderr: string }> {
  const env = cliEnv({ XIAOZHI_TRAY_STATE_DIR: stateDir, XIAOZHI_TRAY_TOKEN: token });
  const child = spawn(process.execPath, [CLI_SCRIPT, 'connect', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const initialize = { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'claude-ai', version: '1' } };
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })}\n`);
  await waitFor(() => sent() || child.exitCode !== null, 20_000, 'connect to refuse or to send');
  child.stdin.end();
  return { code: await exited, stderr };
}

const ipv6Loopback = await new Promise<boolean>((resolve) => {
  const probe = net.createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

const sessionsOf = async (url: string) =>
  ((await (await fetch(new URL('/status', url), { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as { sessions: number })
    .sessions;

describe('xiaozhi-tray connect (stdio, for Claude Desktop)', () => {
  it("finds the running app by its state file, lists the client's set and calls its tools", async () => {
    const stateDir = tempDir();
    const app = await startApp(stateDir);
    const { client } = await connectClient(stateDir);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).toContain('big');
    expect(names.some((n) => n.startsWith('weather_') && n !== 'weather_get')).toBe(false);
    const result = (await client.callTool({ name: 'echo', arguments: { text: '克劳德' } })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'notes: 克劳德' }]);
    // Unshaped through the relay too: every content item.
    const picture = (await client.callTool({ name: 'picture', arguments: {} })) as CallToolResult;
    expect(picture.content.map((c) => c.type)).toEqual(['text', 'image', 'resource']);
    expect(await sessionsOf(app.url)).toBe(1);
    // The client quits: connect ends the app's session and exits.
    await client.close();
    await waitFor(async () => (await sessionsOf(app.url)) === 0, 10_000, 'the session to be released');
  });

  it('takes --url and XIAOZHI_TRAY_TOKEN instead of the state file', async () => {
    const app = await startApp(tempDir());
    const { client } = await connectClient(tempDir(), ['--url', app.url, '--client', 'claude-desktop'], TOKEN);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'x' } })) as CallToolResult).toMatchObject({
      content: [{ text: 'notes: x' }],
    });
  });

  it('says in one line, exiting non-zero, when the app is not running or refuses the token', async () => {
    const nothing = await connectOnce(tempDir());
    expect(nothing.code).toBe(1);
    expect(nothing.stdout).toBe('');
    expect(nothing.stderr.trim().split('\n')).toHaveLength(1);
    expect(nothing.stderr).toMatch(/^xiaozhi-tray connect: Xiaozhi Tray is not running, or its local MCP server is off/);

    const stateDir = tempDir();
    const app = await startApp(stateDir);
    const wrong = await connectOnce(stateDir, ['--url', app.url], 'not-the-token-0123456789');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^xiaozhi-tray connect: what listens at http:\/\/127\.0\.0\.1:\d+ could not show that it knows the token, so the token was not sent to it\. Was the token regenerated\?/,
    );
    await stopApp(app);
    const gone = await connectOnce(stateDir);
    expect(gone.code).toBe(1);
    expect(gone.stderr.trim().split('\n')).toHaveLength(1);
    const closed = await connectOnce(tempDir(), ['--url', app.url], TOKEN);
    expect(closed.stderr).toMatch(/Xiaozhi Tray is not running at http:\/\/127\.0\.0\.1:\d+ \(nothing listens there\)/);
  });

  it("trusts a state file only when it names a loopback URL and (Linux, macOS) is the user's own and not writable by others", async () => {
    // A server that would collect the token, were connect to trust the file.
    const thief = http.createServer((_req, res) => {
      stolen++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
    let stolen = 0;
    await new Promise<void>((resolve) => thief.listen(0, '0.0.0.0', () => resolve()));
    const port = (thief.address() as { port: number }).port;
    const write = (url: string, mode = 0o600) => {
      const dir = tempDir();
      fs.writeFileSync(
        path.join(dir, 'local-server.json'),
        JSON.stringify({ pid: process.pid, url, token: TOKEN, version: '0.1.0', startedAt: Date.now() }),
        { mode },
      );
      fs.chmodSync(path.join(dir, 'local-server.json'), mode);
      return dir;
    };
    try {
      // (0.0.0.0 reaches this machine too, but is no loopback name: as a LAN address would be, it is refused.)
      const remote = await connectOnce(write(`http://0.0.0.0:${port}/mcp`));
      expect(remote.code).toBe(1);
      expect(remote.stderr.trim().split('\n')).toHaveLength(1);
      expect(remote.stderr).toContain(`local-server.json: it names http://0.0.0.0:${port}, which is not a server on this machine`);
      const file = path.join(write(`http://127.0.0.1:${port}/mcp`), 'local-server.json');
      expect(stateDistrust(file, 'http://evil.example/mcp')).toMatch(
        /^it names http:\/\/evil\.example, which is not a server on this machine/,
      );
      expect(stateDistrust(file, 'https://127.0.0.1:1/mcp')).toMatch(/which is not a server on this machine/);
      expect(stateDistrust(file, 'http://[::1]:1/mcp')).toBeUndefined();
      expect(stateDistrust(file, 'http://localhost:1/mcp')).toBeUndefined();
      if (process.platform !== 'win32') {
        const writable = await connectOnce(write(`http://127.0.0.1:${port}/mcp`, 0o666));
        expect(writable.code).toBe(1);
        expect(writable.stderr).toContain('others can write to it (mode 666)');
        if (process.getuid?.() === 0) {
          const dir = write(`http://127.0.0.1:${port}/mcp`);
          fs.chownSync(path.join(dir, 'local-server.json'), 65534, 65534);
          const foreign = await connectOnce(dir);
          expect(foreign.code).toBe(1);
          expect(foreign.stderr).toContain('it belongs to another user (uid 65534)');
        }
      }
      expect(stolen).toBe(0);
    } finally {
      thief.closeAllConnections();
      await new Promise((resolve) => thief.close(resolve));
    }
  });

  it.skipIf(process.platform === 'win32')(
    'says so at once when the state file is a device, a FIFO or huge, rather than read it for ever',
    async () => {
      const settled = (dir: string) =>
        Promise.race([
          connectOnce(dir),
          new Promise<never>((_resolve, reject) =>
            setTimeout(() => reject(new Error(`connect still reading the state file after ${scaled(10_000)} ms`)), scaled(10_000)),
          ),
        ]);
      const device = tempDir();
      fs.symlinkSync('/dev/zero', path.join(device, 'local-server.json'));
      const fifo = tempDir();
      execFileSync('mkfifo', ['-m', '600', path.join(fifo, 'local-server.json')]);
      const huge = tempDir();
      fs.writeFileSync(path.join(huge, 'local-server.json'), `{"pid": ${process.pid}, "pad": "${'x'.repeat(2 * 1024 * 1024)}"}`, {
        mode: 0o600,
      });
      for (const dir of [device, fifo, huge]) {
        const result = await settled(dir);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toContain(path.join(dir, 'local-server.json'));
      }
    },
  );

  it('never prints the token when it cannot be sent in a header', async () => {
    const secret = 'first-half-of-the-token\nsecond-half-of-the-token';
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'local-server.json'),
      JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:9/mcp', token: secret, version: '0.1.0', startedAt: Date.now() }),
      { mode: 0o600 },
    );
    for (const result of [await connectOnce(dir), await connectOnce(tempDir(), ['--url', 'http://127.0.0.1:9/mcp'], secret)]) {
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toContain('first-half-of-the-token');
      expect(result.stderr).not.toContain('second-half-of-the-token');
    }
  });

  it('sends the token only to a listener that proves it knows it: a stale state file whose port (and pid) someone else took gets nothing', async () => {
    // What the issue found: the app gone, its state file left, another program on its port.
    const seen: string[] = [];
    const thief = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
        // Says yes to everything, as a listener collecting tokens would.
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ name: 'xiaozhi-tray', proof: 'x'.repeat(43), sessions: 0 }));
      });
    });
    await new Promise<void>((resolve) => thief.listen(0, '127.0.0.1', () => resolve()));
    const port = (thief.address() as { port: number }).port;
    try {
      const dir = tempDir();
      fs.writeFileSync(
        path.join(dir, 'local-server.json'),
        JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}/mcp`, token: TOKEN, version: '0.1.0', startedAt: Date.now() }),
        { mode: 0o600 },
      );
      for (const args of [['--client', 'claude-desktop'], []]) {
        const result = await connectOnce(dir, args);
        expect(result.code).toBe(1);
        expect(result.stderr).toBe(
          `xiaozhi-tray connect: what listens at http://127.0.0.1:${port} could not show that it knows the token, so the token was not sent to it. Was the token regenerated? Copy the new one from Xiaozhi Tray, Settings → Local MCP server (or start the app again).\n`,
        );
      }
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) {
        expect(request).not.toContain(TOKEN);
        expect(request).not.toContain(clientToken(TOKEN, 'claude-desktop'));
      }
    } finally {
      thief.closeAllConnections();
      await new Promise((resolve) => thief.close(resolve));
    }
  });

  it.skipIf(!ipv6Loopback)(
    "sends no token to a listener at another loopback address on the app's port that passes the app's proof on as its own",
    async () => {
      // Another user's program on [::1]:P while the app listens on 127.0.0.1:P (localhost is ::1 first on most desktops).
      const stateDir = tempDir();
      const app = await startApp(stateDir);
      const port = Number(new URL(app.url).port);
      const seen: string[] = [];
      const thief = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
        if (req.url?.startsWith('/proof')) {
          void fetch(`http://127.0.0.1:${port}${req.url}`).then(async (answer) =>
            res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(await answer.text()),
          );
          return;
        }
        res.writeHead(500).end();
      });
      await new Promise<void>((resolve) => thief.listen(port, '::1', () => resolve()));
      try {
        // Beside the app's state file, an address that is not the app's is refused before anything is sent.
        const posted = () => seen.some((line) => line.startsWith('POST'));
        const beside = await connectAndInitialize(stateDir, ['--url', `http://[::1]:${port}/mcp`], TOKEN, posted);
        expect(beside.code).toBe(1);
        expect(beside.stderr).toBe(
          `xiaozhi-tray connect: --url names http://[::1]:${port}, but Xiaozhi Tray listens at http://127.0.0.1:${port} (${path.join(stateDir, 'local-server.json')}): leave out --url, or add --force-url to send the token there anyway.\n`,
        );
        expect(seen).toEqual([]);
        // Asked explicitly (or with no state file), the proof is bound to the address: the relayed one does not fit.
        for (const [dir, extra] of [
          [stateDir, ['--force-url']],
          [tempDir(), []],
        ] as const) {
          const result = await connectAndInitialize(dir, ['--url', `http://[::1]:${port}/mcp`, ...extra], TOKEN, posted);
          expect(result.code).toBe(1);
          expect(result.stderr).toMatch(/could not show that it knows the token, so the token was not sent to it/);
        }
        expect(seen.some((line) => line.startsWith('GET /proof'))).toBe(true);
        expect(seen.filter((line) => line.includes(TOKEN))).toEqual([]);
        // By name, localhost reaches the app at 127.0.0.1 past the listener at ::1 that cannot prove.
        const { client } = await connectClient(tempDir(), ['--url', `http://localhost:${port}/mcp`, '--client', 'claude-desktop'], TOKEN);
        expect((await client.callTool({ name: 'echo', arguments: { text: 'x' } })) as CallToolResult).toMatchObject({
          content: [{ text: 'notes: x' }],
        });
        expect(seen.filter((line) => line.includes(TOKEN))).toEqual([]);
      } finally {
        thief.closeAllConnections();
        await new Promise((resolve) => thief.close(resolve));
      }
    },
    90_000,
  );

  it("counts a pid it may not signal (another user's process), and pid 1, as no app of ours", () => {
    expect(isOwnProcess(process.pid)).toBe(true);
    expect(isOwnProcess(1)).toBe(false);
    expect(isOwnProcess(0)).toBe(false);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() !== 0)(
    "treats a state file naming another user's process as left over (EPERM is not ours), run as that other user",
    async () => {
      // connect runs as uid 65534; the pid in its state file is this (root's) process, as a pid used again would be.
      const dir = tempDir();
      fs.writeFileSync(
        path.join(dir, 'local-server.json'),
        JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:9/mcp', token: TOKEN, version: '0.1.0', startedAt: Date.now() }),
        { mode: 0o600 },
      );
      fs.chownSync(dir, 65534, 65534);
      fs.chownSync(path.join(dir, 'local-server.json'), 65534, 65534);
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI_SCRIPT, 'connect'], {
          uid: 65534,
          gid: 65534,
          env: { PATH: process.env.PATH ?? '', HOME: dir, XIAOZHI_TRAY_STATE_DIR: dir },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        children.push(child);
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `xiaozhi-tray connect: Xiaozhi Tray is not running (${path.join(dir, 'local-server.json')} is left from a process that has ended).\n`,
      );
    },
  );

  it('takes --url on this machine only, by a loopback name: not 0.0.0.0, not an IPv4-mapped address', async () => {
    let reached = 0;
    const thief = http.createServer((_req, res) => {
      reached++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
    // Every IPv4 address, the mapped ones included (where an IPv6 stack exists).
    await new Promise<void>((resolve) => thief.listen(0, '0.0.0.0', () => resolve()));
    const port = (thief.address() as { port: number }).port;
    try {
      for (const url of [
        `http://0.0.0.0:${port}/mcp`,
        `http://[::ffff:127.0.0.1]:${port}/mcp`,
        `http://[::]:${port}/mcp`,
        `https://127.0.0.1:${port}/mcp`,
        `http://192.0.2.1:${port}/mcp`,
      ]) {
        const result = await connectOnce(tempDir(), ['--url', url], TOKEN);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(
          /^xiaozhi-tray connect: --url must name this machine \(http:\/\/127\.0\.0\.1, http:\/\/localhost or http:\/\/\[::1\]\), not \S+: the token is sent there\.\n$/,
        );
      }
      expect(reached).toBe(0);
    } finally {
      thief.closeAllConnections();
      await new Promise((resolve) => thief.close(resolve));
    }
  });

  it('picks up the new port and token of a restarted app: reads the state file again and has it prove the new token', async () => {
    const stateDir = tempDir();
    const first = await startApp(stateDir);
    const { client, stderr } = await connectClient(stateDir);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'before' } })) as CallToolResult).toMatchObject({
      content: [{ text: 'notes: before' }],
    });
    await stopApp(first);
    // Back with another token, on another port (a token made for the run, port 0).
    const second = await startApp(stateDir, 0, 'a-new-token-after-restart-0123456789');
    expect(second.url).not.toBe(first.url);
    const result = (await client.callTool({ name: 'echo', arguments: { text: 'after' } })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'notes: after' }]);
    expect(stderr()).toContain('Xiaozhi Tray restarted: opened a new session');
    // Back on the same port with yet another token: the old one is refused (401), the new one proven and used.
    await stopApp(second);
    await startApp(stateDir, Number(new URL(second.url).port), 'a-third-token-after-restart-0123456789');
    const again = (await client.callTool({ name: 'echo', arguments: { text: 'again' } })) as CallToolResult;
    expect(again.content).toEqual([{ type: 'text', text: 'notes: again' }]);
  }, 90_000);

  it('answers with a readable error while the app is away, and carries on when it is back', async () => {
    const stateDir = tempDir();
    const first = await startApp(stateDir);
    const { client } = await connectClient(stateDir);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await stopApp(first);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'away' } })).rejects.toThrow(/Xiaozhi Tray is not reachable/);
    // Back on the same port (as the app's fixed port would be): a new session, opened by the relay.
    await startApp(stateDir, Number(new URL(first.url).port));
    const result = (await client.callTool({ name: 'echo', arguments: { text: 'back' } })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'notes: back' }]);
  });
});

describe('export in the clients formats', () => {
  it("prints this app's local server as an entry of each client's config", async () => {
    const dir = tempDir();
    const config = path.join(dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ servers: [], localServer: { port: 18799, token: TOKEN } }));
    // The command's words and exit code, in this process (no process behaviour to see here).
    const exportAs = (format: string) =>
      cli.answered(['export', '--config', config, '--format', format], { env: { XIAOZHI_TRAY_STATE_DIR: dir } });
    const cursor = await exportAs('cursor');
    expect(cursor.code).toBe(0);
    // Each client's entry carries its own token, which opens its own path only.
    expect(JSON.parse(cursor.out)).toEqual({
      mcpServers: {
        'xiaozhi-tray': { url: 'http://127.0.0.1:18799/mcp/cursor', headers: { Authorization: `Bearer ${clientToken(TOKEN, 'cursor')}` } },
      },
    });
    expect(JSON.parse((await exportAs('vscode')).out)).toEqual({
      servers: {
        'xiaozhi-tray': {
          type: 'http',
          url: 'http://127.0.0.1:18799/mcp/vscode',
          headers: { Authorization: `Bearer ${clientToken(TOKEN, 'vscode')}` },
        },
      },
    });
    expect(cursor.out).not.toContain(TOKEN);
    const claude = JSON.parse((await exportAs('claude-desktop')).out).mcpServers['xiaozhi-tray'];
    expect(claude.command).toBe(process.execPath);
    expect(claude.args.slice(-3)).toEqual(['connect', '--client', 'claude-desktop']);
    expect(JSON.stringify(claude)).not.toContain(TOKEN);
    expect(JSON.parse((await exportAs('cherry-studio')).out).mcpServers['xiaozhi-tray']).toMatchObject({
      type: 'streamableHttp',
      baseUrl: 'http://127.0.0.1:18799/mcp/cherry-studio',
    });
    expect((await exportAs('zed')).code).toBe(2);
  });
});
