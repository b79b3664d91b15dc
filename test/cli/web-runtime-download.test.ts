import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../helpers/runtime-mirror';
import { tempDirs } from '../helpers/temp-dirs';

const tempDir = tempDirs('xt-web-runtime-');
let bridge: WindowBridge | undefined;
let mirror: RuntimeMirror | undefined;
let ws: WebSocket | undefined;
afterEach(async () => {
  ws?.close();
  await bridge?.stop();
  await mirror?.close();
  bridge = undefined;
  mirror = undefined;
  ws = undefined;
});

/** The web page's API as the page uses it: its token, its Origin, one command at a time. */
async function api(url: string) {
  const { port, hash } = new URL(url);
  const token = new URLSearchParams(hash.split('?')[1]).get('token') ?? '';
  ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=${token}`, { origin: `http://127.0.0.1:${port}` });
  const socket = ws;
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const events: { event: string; payload: unknown }[] = [];
  const replies = new Map<number, (reply: { output?: unknown; error?: string }) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; event?: string; payload?: unknown; output?: unknown; error?: string };
    if (message.event) events.push({ event: message.event, payload: message.payload });
    else replies.get(message.id ?? -1)?.(message);
  });
  let next = 1;
  const call = (command: string, input?: unknown) =>
    new Promise<{ output?: unknown; error?: string }>((resolve) => {
      const id = next++;
      replies.set(id, resolve);
      socket.send(JSON.stringify({ id, command, input }));
    });
  return { call, events };
}

/**
 * Issue 33: a headless run could download uv only if restarted with --fetch-runtimes. Its web page now
 * asks for it (the same download, from the config's sources, checked against the app's own SHA-256).
 */
describe.skipIf(process.platform === 'win32' || fs.existsSync('/usr/bin/uvx'))(
  'a headless run with its web page, without --fetch-runtimes',
  () => {
    it('downloads uv when the page asks, from the download sources, into its cache folder, and checks it', async () => {
      // The source serves its own build of uv: the real run checks it against the app's pins and refuses it.
      mirror = await startRuntimeMirror({ uv: uvStandIn() });
      const work = tempDir();
      const config = path.join(work, 'xiaozhi-tray.json');
      const uvx = { name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] };
      fs.writeFileSync(config, JSON.stringify({ mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload }, servers: [uvx] }));
      const cache = path.join(work, 'cache');
      bridge = await startWindowBridge(config, {
        PATH: `${tempDir()}:/usr/bin:/bin`,
        HOME: work,
        XDG_CACHE_HOME: cache,
        XDG_CONFIG_HOME: path.join(work, 'config'),
      });
      const { call, events } = await api(bridge.url);
      const host = (await call('getHostInfo')).output as { runtimes: { uv: string }; runtimeDownload: boolean };
      expect(host).toMatchObject({ runtimes: { uv: 'missing' }, runtimeDownload: true });
      // Nothing was fetched at start: only a person's request does.
      expect(mirror.requests).toEqual([]);
      const answer = await call('fetchRuntime', { runtime: 'uv' });
      expect(answer.output).toMatchObject({ problem: { code: 'server.runtimeMismatch', params: { runtime: 'uv', host: '127.0.0.1' } } });
      expect(mirror.requests.map((r) => r.path).some((p) => p.startsWith('/uv/'))).toBe(true);
      expect(events.filter((e) => e.event === 'runtimeFetch').at(-1)?.payload).toMatchObject({ runtime: 'uv', state: 'failed' });
      // Its cache folder, not the config's: and nothing of the refused file kept.
      expect(fs.readdirSync(path.join(cache, 'xiaozhi-tray', 'runtimes', 'downloads'))).toEqual([]);
    }, 90_000);
  },
);
