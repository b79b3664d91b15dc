import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { packageRun, saysInstalling } from '../../../../src/main/core/servers/first-run';
import { type Harness, logText, makeBridge } from '../../../helpers/bridge-harness';
import { type FakeNpx, fakeNpx } from '../../../helpers/fake-npx';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

let harness: Harness | undefined;
let npx: FakeNpx | undefined;
let xiaozhi: FakeXiaozhi | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.bridge.stop();
  await xiaozhi?.close();
  npx?.remove();
  harness = undefined;
  npx = undefined;
  xiaozhi = undefined;
});

// The "download" takes longer than the start timeout: only a longer one for a first run lets it come up.
const supervision = { restartBaseMs: 50, restartMaxMs: 200, crashWindowMs: 60_000, maxCrashes: 5, startTimeoutMs: 1500, stopGraceMs: 500 };
const server = () => harness!.bridge.state().servers.find((s) => s.name === 'weather')!;
const NPM_SAYS = 'npm warn exec The following package was not found and will be installed: @acme/weather-mcp@1.2.0';

describe.skipIf(process.platform === 'win32')('the first run of an npx server', () => {
  it('says it is downloading and installing (npm said so), and waits for it past the start timeout', async () => {
    npx = fakeNpx();
    // Another version in the cache: only what npm prints tells this run apart.
    npx.cachePackage('@acme/weather-mcp');
    harness = makeBridge(
      {
        servers: [npx.server(['@acme/weather-mcp'], { FAKE_NPX_SAYS: NPM_SAYS, FAKE_NPX_SECONDS: '4' })],
      },
      supervision,
    );
    const seen: string[] = [];
    harness.bridge.on('status', (s) => {
      const w = s.servers[0];
      if (w?.installing) seen.push(`${w.state} ${w.installing.runner} ${w.installing.package ?? ''}`);
    });
    harness.bridge.start();
    await waitFor(() => server().state === 'running' || server().restarts > 0, 20_000, 'the first run to end');
    expect(server().restarts).toBe(0);
    expect(server().state).toBe('running');
    expect(seen).toContain('starting npx @acme/weather-mcp');
    expect(server().installing).toBeUndefined();
    expect(logText(harness.logBook)).toMatch(/\[server:weather\] first run: npx is downloading and installing @acme\/weather-mcp/);
  });

  it('does not promise "up to 10 min" to a runner that fails at once (offline)', async () => {
    npx = fakeNpx();
    // npm says it will install, then fails in milliseconds: the promised wait never happens.
    const failing = npx.server(['@acme/weather-mcp'], { FAKE_NPX_SAYS: NPM_SAYS, FAKE_NPX_SECONDS: '0', FAKE_NPX_NODE: '/bin/false' });
    harness = makeBridge({ servers: [failing] }, { ...supervision, maxCrashes: 2 });
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 20_000, 'the runner to fail');
    // Before: "first run: npx is downloading and installing …; it is given up to 10 min to start" at each attempt.
    expect(logText(harness.logBook)).not.toMatch(/given up to/);
  });

  // The MCP SDK gives a request 60 s by default (DEFAULT_REQUEST_TIMEOUT_MSEC in
  // @modelcontextprotocol/sdk's shared/protocol.js): an install that took longer was cut at 60 s and
  // restarted (npm killed mid-download) however long the first run was promised. Waiting out the
  // real 60 s took a minute of every run: here the SDK's default is a second (a request given no
  // timeout of its own gets that), and the install takes longer than it.
  it("waits past the MCP SDK's own request timeout for an install that takes longer", async () => {
    const sdkDefaultMs = scaled(1000);
    const request = Client.prototype.request;
    vi.spyOn(Client.prototype, 'request').mockImplementation(function (this: Client, ...args: Parameters<Client['request']>) {
      const [message, schema, options] = args;
      return request.call(this, message, schema, { ...options, timeout: options?.timeout ?? sdkDefaultMs });
    });
    npx = fakeNpx();
    const seconds = Math.ceil(sdkDefaultMs / 1000) + 1;
    harness = makeBridge(
      { servers: [npx.server(['@acme/weather-mcp'], { FAKE_NPX_SAYS: NPM_SAYS, FAKE_NPX_SECONDS: String(seconds) })] },
      { ...supervision, installTimeoutMs: 100_000 },
    );
    const started = Date.now();
    harness.bridge.start();
    await waitFor(() => server().state === 'running' || server().restarts > 0, 100_000, 'the first run to end');
    expect(server().lastError).toBeUndefined();
    expect(server().restarts).toBe(0);
    expect(server().state).toBe('running');
    // The install did outlast the SDK's default: a cut would have shown above.
    expect(Date.now() - started).toBeGreaterThan(sdkDefaultMs);
  });

  it('tells a first run of `npx -y` (npm says nothing) by the package missing from the npx cache', async () => {
    npx = fakeNpx();
    harness = makeBridge(
      {
        servers: [npx.server(['-y', '@acme/weather-mcp@latest', '--units', 'metric'], { FAKE_NPX_SECONDS: '3' })],
      },
      supervision,
    );
    harness.bridge.start();
    await waitFor(() => server().installing !== undefined || server().state !== 'starting', 10_000, 'the first run to be noticed');
    expect(server().installing).toEqual({ runner: 'npx', package: '@acme/weather-mcp@latest' });
    await waitFor(() => server().state !== 'starting', 20_000, 'the first run to end');
    expect(server().state).toBe('running');
  });

  it("does not hold xiaozhi's first tools/list past the start grace, and announces the tools once they come", async () => {
    npx = fakeNpx();
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge(
      {
        endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }],
        servers: [npx.server(['@acme/weather-mcp'], { FAKE_NPX_SAYS: NPM_SAYS, FAKE_NPX_SECONDS: '5' })],
        limits: { startGraceMs: 1000 },
      },
      supervision,
    );
    harness.bridge.start();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const mark = session.mark();
    const list = await session.request(2, 'tools/list', {});
    // Answered while the server still installs: the grace, not the download, bounds the wait.
    expect(server().state).toBe('starting');
    expect(server().installing).toBeDefined();
    expect(list.result?.tools ?? []).toEqual([]);
    await session.waitForNotification('notifications/tools/list_changed', mark, 20_000);
    expect(server().state).toBe('running');
  });
});

describe('what tells a first run', () => {
  it('knows the package runners and the package each runs, and never reports a URL or a path as a package', () => {
    expect(packageRun('npx', ['-y', '@modelcontextprotocol/server-memory'])).toEqual({
      runner: 'npx',
      package: '@modelcontextprotocol/server-memory',
    });
    expect(packageRun('/usr/local/bin/npx', ['--yes', '--package=@acme/tools@2', 'acme-mcp'])).toEqual({
      runner: 'npx',
      package: '@acme/tools@2',
    });
    expect(packageRun('C:\\Program Files\\nodejs\\npx.cmd', ['-y', 'mcp-remote', 'https://example.com/sse'])).toEqual({
      runner: 'npx',
      package: 'mcp-remote',
    });
    expect(packageRun('uvx', ['--python', '3.12', 'mcp-server-fetch==2025.1'])).toEqual({
      runner: 'uvx',
      package: 'mcp-server-fetch==2025.1',
    });
    expect(packageRun('uvx', ['--from', 'git+https://user:tok@github.com/acme/mcp', 'acme-mcp'])).toEqual({ runner: 'uvx' });
    expect(packageRun('pnpm', ['dlx', '@acme/mcp'])).toEqual({ runner: 'pnpm dlx', package: '@acme/mcp' });
    expect(packageRun('bunx', ['acme-mcp'])).toEqual({ runner: 'bunx', package: 'acme-mcp' });
    expect(packageRun('uv', ['tool', 'run', 'mcp-server-git'])).toEqual({ runner: 'uv tool run', package: 'mcp-server-git' });
    expect(packageRun('npx', ['-y', './local-server'])).toEqual({ runner: 'npx' });
    expect(packageRun('node', ['server.js'])).toBeUndefined();
    expect(packageRun('python', ['-m', 'mcp_server'])).toBeUndefined();
    expect(packageRun('pnpm', ['start'])).toBeUndefined();
  });

  it('reads what npm, uv, pnpm and bun print while they install, and nothing else', () => {
    for (const line of [
      'npm warn exec The following package was not found and will be installed: @acme/weather-mcp@1.2.0',
      'npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.',
      'Downloading cpython-3.12.7-linux-x86_64-gnu (download) (30.4MiB)',
      'Downloading pydantic-core (1.9MiB)',
      'Resolved 33 packages in 1.21s',
      'Installed 33 packages in 25ms',
      'Progress: resolved 12, reused 0, downloaded 12, added 0',
      'Resolving dependencies',
    ]) {
      expect(saysInstalling(line), line).toBe(true);
    }
    for (const line of [
      'Weather MCP server running on stdio',
      'Installed tools: 12',
      'npm warn config production Use `--omit=dev` instead.',
      'Error: Cannot find module x',
    ]) {
      expect(saysInstalling(line), line).toBe(false);
    }
  });
});
