import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { EventPayload } from '../../../../src/shared/bridge-api';
import { type Harness, makeBridge, slowRestarts } from '../../../helpers/bridge-harness';
import { pinsOf, type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../../../helpers/runtime-mirror';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

const tempDir = tempDirs('xt-runtime-on-request-');
let harness: Harness | undefined;
let mirror: RuntimeMirror | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  await mirror?.close();
  harness = undefined;
  mirror = undefined;
});

const uv = uvStandIn();
const uvx = { name: 'time', transport: 'stdio' as const, command: 'uvx', args: ['mcp-server-time'], env: { FIXTURE_NAME: 'time' } };
const server = (name: string) => harness!.bridge.state().servers.find((s) => s.name === name)!;

/** A headless run with its web page: runtimes are fetched when the person asks (Download uv), never by themselves. */
function onRequest(m: RuntimeMirror, runtimesDir = tempDir()) {
  harness = makeBridge({ mirrors: { preset: 'custom', uvDownload: m.urls.uvDownload! }, servers: [uvx] }, slowRestarts, {
    env: { ...process.env, PATH: `${tempDir()}:/usr/bin:/bin` },
    runtimesDir,
    runtimesFetch: 'onRequest',
    runtimePins: pinsOf(uv),
  });
  const heard: EventPayload<'runtimeFetch'>[] = [];
  harness.bridge.on('runtimeFetch', (e) => heard.push(e));
  harness.bridge.start();
  return { heard, runtimesDir };
}

/** Issue 33: a headless run could not get uv from its web page; only a restart with --fetch-runtimes did. */
describe.skipIf(process.platform === 'win32' || fs.existsSync('/usr/bin/uvx'))('a runtime downloaded on request', () => {
  it('is not fetched at start: the server says uv is missing, and the window may ask for it', async () => {
    mirror = await startRuntimeMirror({ uv });
    onRequest(mirror);
    await waitFor(() => server('time').state === 'failed', 30_000, 'the server failing');
    expect(server('time').lastErrorCause?.code).toBe('server.runtimeMissing');
    expect(mirror.requests).toEqual([]);
    const host = await harness!.bridge.api.getHostInfo();
    expect(host.runtimes?.uv).toBe('missing');
    expect(host.runtimeDownload).toBe(true);
  });

  it('downloads from the download sources with progress, then starts the servers that waited for it', async () => {
    mirror = await startRuntimeMirror({ uv });
    const { heard, runtimesDir } = onRequest(mirror);
    await waitFor(() => server('time').state === 'failed', 30_000, 'the server failing');
    const answer = await harness!.bridge.api.fetchRuntime({ runtime: 'uv' });
    expect(answer).toEqual({ version: uv.source.version });
    expect(mirror.requests.map((r) => r.path)).toContain(`/uv/${uv.source.version}/${uv.source.archive}`);
    expect(heard[0]).toEqual({ runtime: 'uv', state: 'fetching' });
    expect(heard.some((e) => e.state === 'fetching' && e.percent === 100)).toBe(true);
    expect(heard.at(-1)).toEqual({ runtime: 'uv', state: 'done', version: uv.source.version });
    expect(fs.existsSync(path.join(runtimesDir, uv.source.folder, 'uvx'))).toBe(true);
    await waitFor(() => server('time').state === 'running', 30_000, 'the server running on the downloaded uv');
    expect(server('time').runtime).toEqual({ name: 'uv', from: 'app', version: uv.source.version });
    expect((await harness!.bridge.api.getHostInfo()).runtimes?.uv).toBe('app');
  });

  it('asked many times at once (two tabs, a flood), downloads once and says each step once', async () => {
    mirror = await startRuntimeMirror({ uv });
    const { heard } = onRequest(mirror);
    await waitFor(() => server('time').state === 'failed', 30_000, 'the server failing');
    const answers = await Promise.all(Array.from({ length: 20 }, () => harness!.bridge.api.fetchRuntime({ runtime: 'uv' })));
    expect(answers).toEqual(Array.from({ length: 20 }, () => ({ version: uv.source.version })));
    expect(mirror.requests.filter((r) => r.path.endsWith(uv.source.archive))).toHaveLength(1);
    // One download, one stream of progress to every page: not one copy of each event per request.
    const steps = heard.map((e) => JSON.stringify(e));
    expect(steps).toEqual([...new Set(steps)]);
    expect(heard.filter((e) => e.state === 'done')).toHaveLength(1);
    await waitFor(() => server('time').state === 'running', 30_000, 'the server running on the downloaded uv');
  });

  it('says why a download failed, in a problem the window words, and leaves the server waiting', async () => {
    mirror = await startRuntimeMirror({});
    const { heard } = onRequest(mirror);
    await waitFor(() => server('time').state === 'failed', 30_000, 'the server failing');
    const answer = await harness!.bridge.api.fetchRuntime({ runtime: 'uv' });
    expect(answer).toMatchObject({ problem: { code: 'server.runtimeDownloadFailed', params: { runtime: 'uv' } } });
    expect(heard.at(-1)).toMatchObject({ runtime: 'uv', state: 'failed', problem: { code: 'server.runtimeDownloadFailed' } });
    expect(server('time').state).toBe('failed');
  });

  it('is refused where no folder holds runtimes (a run without the web page)', async () => {
    harness = makeBridge({ servers: [] }, slowRestarts);
    expect((await harness.bridge.api.getHostInfo()).runtimeDownload).toBeFalsy();
    await expect(harness.bridge.api.fetchRuntime({ runtime: 'uv' })).rejects.toThrow(/cannot download/);
  });
});
