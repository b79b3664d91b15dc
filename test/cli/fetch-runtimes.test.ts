import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installCommand } from '../../src/shared/runtime-need';
import { startRuntimeMirror, uvStandIn, type RuntimeMirror } from '../helpers/runtime-mirror';
import { CliHarness, waitForText } from './cli-harness';

const h = new CliHarness();
let mirror: RuntimeMirror | undefined;
afterEach(async () => {
  h.cleanup();
  await mirror?.close();
  mirror = undefined;
});

const uvx = { name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'], env: { FIXTURE_NAME: 'time' } };
/** The system's tools (tar), and no uv. */
const noUv = () => ({ PATH: `${h.tempDir()}:/usr/bin:/bin` });

describe.skipIf(process.platform === 'win32' || fs.existsSync('/usr/bin/uvx'))('xiaozhi-tray run and a missing runtime', () => {
  it('warns at start with the exact install command, and the server fails saying it', async () => {
    const config = h.writeConfig({ version: 2, servers: [uvx] });
    const run = h.spawn(['run', '--config', config], { env: noUv() });
    await waitForText(run.stdout, /\[server:time\].*needs uv/, 60_000);
    run.child.kill('SIGTERM');
    await run.exit;
    const install = installCommand('uv', process.platform);
    expect(run.stdout()).toContain(
      `server "time": the command "uvx" needs uv, which was not found on PATH here; install it with: ${install} (or start with --fetch-runtimes, and the app fetches it)`,
    );
    expect(run.stdout()).toContain(`[server:time] the command "uvx" needs uv, which is not installed here; install it with: ${install}`);
  }, 90_000);

  it('with --fetch-runtimes, fetches uv into its cache folder from the configured source and runs the server', async () => {
    mirror = await startRuntimeMirror({ uv: uvStandIn() });
    const cache = h.tempDir();
    const config = h.writeConfig({ version: 2, mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload }, servers: [uvx] });
    const run = h.spawn(['run', '--config', config, '--fetch-runtimes'], { env: { ...noUv(), XDG_CACHE_HOME: cache } });
    await waitForText(run.stdout, /\[server:time\] running/, 60_000);
    run.child.kill('SIGTERM');
    await run.exit;
    expect(run.stdout()).toContain("[server:time] runs with the app's uv 0.10.10");
    expect(run.stdout()).not.toContain('install it with');
    expect(fs.existsSync(path.join(cache, 'xiaozhi-tray', 'runtimes', uvStandIn().source.folder, 'uvx'))).toBe(true);
  }, 90_000);

  it("`tools --fetch-runtimes` fetches it too, then lists the server's tools", async () => {
    mirror = await startRuntimeMirror({ uv: uvStandIn() });
    const config = h.writeConfig({ version: 2, mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload }, servers: [uvx] });
    const run = h.spawn(['tools', '--config', config, '--fetch-runtimes'], { env: { ...noUv(), XDG_CACHE_HOME: h.tempDir() } });
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toMatch(/server time \(stdio\): 12 tools/);
    expect(run.stdout()).not.toContain('install it with');
  }, 90_000);
});
