import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { runtimeSource } from '../../src/main/core/runtimes/runtime-sources';
import { CHINA_MIRRORS } from '../../src/shared/mirrors';
import { installCommand } from '../../src/shared/runtime-need';
import { FIXTURE } from '../helpers/bridge-harness';
import { type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../helpers/runtime-mirror';
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

/** A cache folder holding the uv the app fetched before (stand-in programs where the store keeps them). */
function cacheWithUv(): string {
  const cache = h.tempDir();
  const folder = path.join(cache, 'xiaozhi-tray', 'runtimes', runtimeSource('uv', {})!.folder);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'uv'), '#!/bin/sh\necho uv\n', { mode: 0o755 });
  fs.writeFileSync(path.join(folder, 'uvx'), `#!/bin/sh\nexec "${process.execPath}" "${FIXTURE}"\n`, { mode: 0o755 });
  return cache;
}

describe.skipIf(process.platform === 'win32' || fs.existsSync('/usr/bin/uvx'))('xiaozhi-tray run and a missing runtime', () => {
  it('warns at start with the exact install command, and the server fails saying it', async () => {
    const config = h.writeConfig({ version: 2, servers: [uvx] });
    const run = h.spawn(['run', '--config', config], { env: noUv() });
    await waitForText(run.stdout, /\[server:time\].*needs uv/, 60_000);
    run.child.kill('SIGTERM');
    await run.exit;
    const install = installCommand('uv', process.platform);
    expect(run.stdout()).toContain(
      `server "time": the command "uvx" needs uv, which was not found on PATH here; install it with: ${install} (or start with --fetch-runtimes, and the app fetches it itself, from the config's download sources)`,
    );
    expect(run.stdout()).toContain(`[server:time] the command "uvx" needs uv, which is not installed here; install it with: ${install}`);
  }, 90_000);

  it('to a Chinese reader, warns in Chinese with the mirrors’ install command the catalogue shows, never astral.sh', async () => {
    const config = h.writeConfig({ version: 2, servers: [uvx] });
    const run = h.spawn(['run', '--config', config], { env: { ...noUv(), LANG: 'zh_CN.UTF-8', LC_ALL: '' } });
    await waitForText(run.stdout, /服务“time”：命令“uvx”需要 uv/, 60_000);
    run.child.kill('SIGTERM');
    await run.exit;
    expect(run.stdout()).toContain(installCommand('uv', process.platform, CHINA_MIRRORS, process.arch));
    expect(run.stdout()).toContain('--fetch-runtimes');
    expect(run.stdout()).not.toContain('astral.sh');
  }, 90_000);

  it('with --fetch-runtimes, a source serving a uv that is not the one the app pins is refused, and nothing is kept', async () => {
    // A hostile mirror: its own uv, with a matching .sha256 beside it.
    mirror = await startRuntimeMirror({ uv: uvStandIn() });
    const cache = h.tempDir();
    const config = h.writeConfig({ version: 2, mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload }, servers: [uvx] });
    const run = h.spawn(['run', '--config', config, '--fetch-runtimes'], { env: { ...noUv(), XDG_CACHE_HOME: cache } });
    await waitForText(run.stdout, /\[server:time\].*not the genuine one/, 60_000);
    run.child.kill('SIGTERM');
    await run.exit;
    expect(run.stdout()).toMatch(
      /\[server:time\] the uv 0\.12\.0 that 127\.0\.0\.1 sent \(uv-[^)]+\) is not the genuine one: its SHA-256 differs from the one the app carries; it was deleted and never run/,
    );
    expect(run.stdout()).not.toContain('running');
    const runtimes = path.join(cache, 'xiaozhi-tray', 'runtimes');
    expect(fs.readdirSync(runtimes)).toEqual(['downloads']);
    expect(fs.readdirSync(path.join(runtimes, 'downloads'))).toEqual([]);
    expect(mirror.requests.map((r) => r.path).filter((p) => p.endsWith('.sha256'))).toEqual([]);
  }, 90_000);

  it('with --fetch-runtimes, runs the server with the uv the app fetched before into its cache folder', async () => {
    const config = h.writeConfig({ version: 2, servers: [uvx] });
    const run = h.spawn(['run', '--config', config, '--fetch-runtimes'], { env: { ...noUv(), XDG_CACHE_HOME: cacheWithUv() } });
    await waitForText(run.stdout, /\[server:time\] running/, 60_000);
    run.child.kill('SIGTERM');
    await run.exit;
    expect(run.stdout()).not.toContain('install it with');
  }, 90_000);

  it("`tools --fetch-runtimes` uses it too, then lists the server's tools", async () => {
    const config = h.writeConfig({ version: 2, servers: [uvx] });
    const run = h.spawn(['tools', '--config', config, '--fetch-runtimes'], { env: { ...noUv(), XDG_CACHE_HOME: cacheWithUv() } });
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toMatch(/server time \(stdio\): 12 tools/);
    expect(run.stdout()).not.toContain('install it with');
  }, 90_000);
});
