import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

import { clientEntry } from '../../../src/main/core/local-server/client-entries';
import { connectModeArgs, desktopConnectCommand } from '../../../src/main/electron/connect-mode';
import { closedAfterEach } from '../../helpers/closed-after-each';
import { startLocalServerApp } from '../../helpers/local-server-app';
import { tempDirs } from '../../helpers/temp-dirs';
import { waitFor } from '../../helpers/wait';

/**
 * The desktop app's `connect` mode: Claude Desktop starts the app's own binary with `connect`
 * (ELECTRON_RUN_AS_NODE is ignored with the runAsNode fuse off). The built main bundle runs under
 * the stand-in Electron (test/fixtures/stand-in-electron.cjs) from a `resources/app` link to this
 * checkout, and relays a real MCP client to a real local server.
 */
const ROOT = path.resolve(__dirname, '../../..');
const STAND_IN = path.join(ROOT, 'test', 'fixtures', 'stand-in-electron.cjs');
const TOKEN = 'desktop-connect-token-0123456789ab';
const tempDir = tempDirs('xt-desk-connect-');
// Children get SIGTERM: the app stops its servers before it exits.
const { clients, children } = closedAfterEach();

/** A resources folder whose `app` is this checkout (its built out/main/index.js). */
function resources(): string {
  const dir = tempDir();
  fs.symlinkSync(ROOT, path.join(dir, 'app'), 'dir');
  return dir;
}

describe("the desktop app's connect mode", () => {
  it('finds `connect` as the first argument a packaged app or a checkout is given', () => {
    expect(connectModeArgs(['/opt/Xiaozhi Tray/xiaozhi-tray', 'connect', '--client', 'claude-desktop'], false)).toEqual([
      '--client',
      'claude-desktop',
    ]);
    expect(connectModeArgs(['/usr/bin/electron', '/src/xiaozhi-tray', 'connect'], true)).toEqual([]);
    expect(connectModeArgs(['/opt/Xiaozhi Tray/xiaozhi-tray'], false)).toBeUndefined();
    expect(connectModeArgs(['/opt/Xiaozhi Tray/xiaozhi-tray', '--hidden', 'connect'], false)).toBeUndefined();
    // A config file that happens to be called "connect" is opened by a checkout, not relayed to.
    expect(connectModeArgs(['/usr/bin/electron', 'connect'], true)).toBeUndefined();
  });

  it("writes Claude Desktop's entry as the app's own binary with `connect`, and no environment variable", () => {
    const packaged = desktopConnectCommand({ isPackaged: true, getAppPath: () => '/opt/x/resources/app.asar' }, '/opt/x/xiaozhi-tray');
    const entry = clientEntry('claude-desktop', { url: 'http://127.0.0.1:1/mcp', appToken: 't', connect: packaged });
    expect(entry).toEqual({ command: '/opt/x/xiaozhi-tray', args: ['connect', '--client', 'claude-desktop'] });
    const checkout = desktopConnectCommand({ isPackaged: false, getAppPath: () => '/src/xt' }, '/node_modules/electron/dist/electron');
    expect(clientEntry('claude-desktop', { url: 'http://127.0.0.1:1/mcp', appToken: 't', connect: checkout })).toEqual({
      command: '/node_modules/electron/dist/electron',
      args: ['/src/xt', 'connect', '--client', 'claude-desktop'],
    });
  });

  it('relays a real MCP client to the running local server, with no lock, tray, window or dock icon, and exits when stdin ends', async () => {
    const dataDir = tempDir();
    children.push(await startLocalServerApp(dataDir, TOKEN));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STAND_IN, resources(), 'connect', '--client', 'claude-desktop'],
      env: { ...(process.env as Record<string, string>), XIAOZHI_TRAY_DATA_DIR: dataDir, XIAOZHI_TRAY_STATE_DIR: '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'claude-ai', version: '0.1.0' }, { capabilities: {} });
    clients.push(client);
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names, stderr).toContain('echo');
    expect(await client.callTool({ name: 'echo', arguments: { text: '你好' } })).toMatchObject({
      content: [{ type: 'text', text: 'notes: 你好' }],
    });
    const pid = transport.pid as number;
    await client.close();
    await waitFor(() => stderr.includes('[stand-in electron] exit 0'), 10_000, `the relay to exit\n${stderr}`);
    expect(() => process.kill(pid, 0)).toThrow();
    for (const shell of ['single-instance lock', 'tray created', 'window created']) expect(stderr).not.toContain(shell);
    expect(fs.existsSync(path.join(dataDir, 'settings.json'))).toBe(false);
  });

  it('says in one line on stderr, exiting 1, when the app is not running; stdout stays empty', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, [STAND_IN, resources(), 'connect'], {
      env: { ...process.env, XIAOZHI_TRAY_DATA_DIR: dataDir, XIAOZHI_TRAY_STATE_DIR: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('xiaozhi-tray connect: Xiaozhi Tray is not running');
    expect(err).not.toContain('tray created');
  });
});
