import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { FIXTURE, type Harness, logText, makeBridge } from '../../../helpers/bridge-harness';
import { nodeStandIn, pinsOf, type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../../../helpers/runtime-mirror';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

const tempDir = tempDirs('xt-private-runtime-');
let harness: Harness | undefined;
let mirror: RuntimeMirror | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  await mirror?.close();
  harness = undefined;
  mirror = undefined;
});

const server = (name: string) => harness!.bridge.state().servers.find((s) => s.name === name)!;
const read = async (tool: string, name: string) =>
  ((await harness!.bridge.toolHub.call(tool, { name }, { caller: 'test' })).result.content[0] as { text: string }).text;

/** The stand-ins' SHA-256s, pinned in place of the real runtimes'. */
const node = nodeStandIn();
const uv = uvStandIn();
const runtimePins = pinsOf(node, uv);

/** A custom download source pointing at the stand-in mirror (npm's and PyPI's left official). */
const mirrorSettings = (m: RuntimeMirror) => ({ preset: 'custom' as const, nodeDist: m.urls.nodeDist!, uvDownload: m.urls.uvDownload! });

describe.skipIf(process.platform === 'win32')("a server run by the app's own runtime", () => {
  it('fetches Node.js for `node` when PATH has none, runs the server with it first on its PATH only, and says so', async () => {
    mirror = await startRuntimeMirror({ node });
    const runtimesDir = tempDir();
    // A PATH with no node on it.
    const env = { ...process.env, PATH: tempDir() };
    harness = makeBridge(
      {
        mirrors: mirrorSettings(mirror),
        servers: [{ name: 'fx', transport: 'stdio', command: 'node', args: [FIXTURE], env: { FIXTURE_NAME: 'fx' } }],
      },
      undefined,
      { env, runtimesDir, runtimePins },
    );
    harness.bridge.start();
    await waitFor(() => server('fx').state === 'running', 120_000, 'the server running on the fetched Node.js');
    expect(server('fx').runtime).toEqual({ name: 'node', from: 'app', version: '22.12.0' });
    const binDir = path.join(runtimesDir, node.source.folder, 'bin');
    expect((await read('getenv', 'PATH')).split(':')[0]).toBe(binDir);
    // Only the child's PATH: the bridge's own stays as it was, the server's command as the user wrote it.
    expect(process.env.PATH?.split(':')).not.toContain(binDir);
    expect(harness.store.load().servers[0]).toMatchObject({ command: 'node', args: [FIXTURE] });
    expect(logText(harness.logBook)).toContain("[server:fx] Node.js is not installed here: fetching Node.js 22.12.0 into the app's folder");
    expect(logText(harness.logBook)).toContain("[server:fx] runs with the app's Node.js 22.12.0");
    // Building the stand-in release (xz over ~100 MB) the first time takes a while.
  }, 180_000);

  it("runs an `npx` server through the fetched Node.js: its `#!/usr/bin/env node` finds the app's node on its PATH", async () => {
    mirror = await startRuntimeMirror({ node });
    harness = makeBridge(
      {
        mirrors: mirrorSettings(mirror),
        servers: [
          { name: 'fx', transport: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp'], env: { STANDIN_NPX_SERVER: FIXTURE } },
        ],
      },
      undefined,
      { env: { ...process.env, PATH: tempDir() }, runtimesDir: tempDir(), runtimePins },
    );
    harness.bridge.start();
    await waitFor(() => server('fx').state === 'running', 120_000, 'the npx server running');
    expect(server('fx').runtime).toEqual({ name: 'node', from: 'app', version: '22.12.0' });
    expect(await read('getenv', 'STANDIN_NPX_SERVER')).toBe(FIXTURE);
  }, 180_000);

  it('fetches uv for `uvx`, and a second server needing it waits for the same download', async () => {
    mirror = await startRuntimeMirror({ uv });
    const release = mirror.hold('uv');
    const env = { ...process.env, PATH: tempDir() };
    harness = makeBridge(
      {
        mirrors: mirrorSettings(mirror),
        servers: [
          { name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'], env: { FIXTURE_NAME: 'time' } },
          { name: 'fetch', transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], env: { FIXTURE_NAME: 'fetch' } },
        ],
      },
      undefined,
      { env, runtimesDir: tempDir(), runtimePins },
    );
    harness.bridge.start();
    await waitFor(
      () => server('time').runtime?.fetching !== undefined && server('fetch').runtime?.fetching !== undefined,
      10_000,
      'both fetching',
    );
    expect(server('time').state).toBe('starting');
    release();
    await harness.bridge.whenServersSettled();
    expect([server('time').state, server('fetch').state]).toEqual(['running', 'running']);
    expect(server('time').runtime).toEqual({ name: 'uv', from: 'app', version: '0.12.0' });
    expect(mirror.requests.filter((r) => r.path.endsWith('.tar.gz'))).toHaveLength(1);
  });

  it('a server stopped while its runtime downloads no longer shows the download; started again, it uses the finished runtime', async () => {
    mirror = await startRuntimeMirror({ uv });
    const release = mirror.hold('uv');
    harness = makeBridge(
      { mirrors: mirrorSettings(mirror), servers: [{ name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] }] },
      undefined,
      { env: { ...process.env, PATH: tempDir() }, runtimesDir: tempDir(), runtimePins },
    );
    harness.bridge.start();
    await waitFor(() => server('time').runtime?.fetching !== undefined, 10_000, 'the download');
    await harness.bridge.api.stopServer({ name: 'time' });
    expect(server('time').state).toBe('stopped');
    expect(server('time').runtime).toBeUndefined();
    release();
    await harness.bridge.api.startServer({ name: 'time' });
    await waitFor(() => server('time').state === 'running', 15_000, 'running');
    expect(server('time').runtime).toEqual({ name: 'uv', from: 'app', version: '0.12.0' });
    expect(mirror.requests.filter((r) => r.path.endsWith('.tar.gz'))).toHaveLength(1);
  });

  it("a failed download is the server's problem, with the reason, and the server is tried again", async () => {
    // Another build than the one pinned: refused.
    mirror = await startRuntimeMirror({ uv: uvStandIn() });
    harness = makeBridge(
      { mirrors: mirrorSettings(mirror), servers: [{ name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] }] },
      { restartBaseMs: 60_000 },
      { env: { ...process.env, PATH: tempDir() }, runtimesDir: tempDir(), runtimePins },
    );
    harness.bridge.start();
    await waitFor(() => server('time').lastErrorCause !== undefined, 10_000, 'the failure');
    expect(server('time').lastErrorCause?.code).toBe('server.runtimeMismatch');
    expect(server('time').lastError).toMatch(/^the uv 0\.12\.0 that 127\.0\.0\.1 sent \(uv-.*\) is not the genuine one/);
    expect(server('time').state).toBe('restarting');
    expect(server('time').runtime).toEqual({ name: 'uv', from: 'app' });
  });
});
