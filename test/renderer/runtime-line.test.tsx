// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';

import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { RuntimeLine } from '../../src/renderer/components/runtime-line';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { FIXTURE, type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { pinsOf, type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../helpers/runtime-mirror';
import { tempDirs } from '../helpers/temp-dirs';
import { scaled } from '../helpers/time-scale';

const tempDir = tempDirs('xt-runtime-line-');
let harness: Harness | undefined;
let mirror: RuntimeMirror | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  await mirror?.close();
  harness = undefined;
  mirror = undefined;
});

describe.skipIf(process.platform === 'win32')('the server card says which runtime runs it', () => {
  for (const [language, fetching, badge, uses] of [
    ['en', 'Fetching uv 0.12.0 for this server…', 'Getting uv', "Uses the app's uv 0.12.0"],
    ['zh-CN', '正在为该服务下载 uv 0.12.0…', '正在获取 uv', '使用应用自带的 uv 0.12.0'],
  ] as const) {
    it(`shows the app's download with its progress, then the app's runtime (${language})`, async () => {
      const uv = uvStandIn();
      mirror = await startRuntimeMirror({ uv });
      const release = mirror.hold('uv');
      harness = makeBridge(
        {
          mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload! },
          servers: [{ name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] }],
        },
        undefined,
        { env: { ...process.env, PATH: tempDir() }, runtimesDir: tempDir(), runtimePins: pinsOf(uv) },
      );
      harness.bridge.start();
      await renderWithBridge(harness, <ServersPage />, language);
      expect((await screen.findByRole('status')).textContent).toMatch(new RegExp(`^${fetching}`));
      expect(screen.getByText(badge)).toBeTruthy();
      expect(screen.getByRole('progressbar', { name: fetching })).toBeTruthy();
      release();
      expect(await screen.findByText(uses, {}, { timeout: scaled(15_000) })).toBeTruthy();
      expect(screen.queryByRole('progressbar')).toBeNull();
    });
  }

  it('shows how far the download got', async () => {
    harness = makeBridge({});
    await renderWithBridge(
      harness,
      <RuntimeLine runtime={{ name: 'node', from: 'app', version: '22.12.0', fetching: { percent: 42 } }} />,
      'en',
    );
    expect(screen.getByRole('status').textContent).toBe('Fetching Node.js 22.12.0 for this server… 42% ');
    expect((screen.getByRole('progressbar') as HTMLProgressElement).value).toBe(42);
  });

  it("says nothing of the user's own runtime when it runs the server (said only where it matters: the app's, or missing)", async () => {
    const bin = tempDir();
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    harness = makeBridge({ servers: [{ name: 'fx', transport: 'stdio', command: 'node', args: [FIXTURE] }] }, undefined, {
      env: { ...process.env, PATH: bin },
      runtimesDir: tempDir(),
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <ServersPage />, 'en');
    expect(harness.bridge.state().servers[0]?.runtime).toMatchObject({ from: 'yours' });
    await screen.findByText('fx');
    // Before: "Uses your Node.js" on every card, a line a person cannot act on.
    expect(screen.queryByText('Uses your Node.js')).toBeNull();
    expect(document.querySelector('.runtime-line')).toBeNull();
  });
});

describe.skipIf(process.platform === 'win32')('the server card of a runtime a download source forged', () => {
  for (const [language, message, hint, link, notYet] of [
    [
      'en',
      /^The uv 0\.12\.0 that 127\.0\.0\.1 sent is not the genuine one: its SHA-256 differs from the one the app carries\. It was deleted and never run\.$/,
      'The source given for uv in Settings → Download sources sent a damaged or altered file: enter another, or choose the official sources.',
      'Open Download sources',
      'Needs uv, which the app has not got yet: it tries again when the server starts',
    ],
    [
      'zh-CN',
      /^127\.0\.0\.1 发送的 uv 0\.12\.0 不是正版：它的 SHA-256 与应用自带的不一致。该文件已删除，从未运行。$/,
      '“设置 → 下载源”中为 uv 填写的下载源发送了损坏或被篡改的文件：请换一个，或选择官方源。',
      '打开下载源设置',
      '需要 uv，应用还没有下载到：服务启动时会再试',
    ],
  ] as const) {
    it(`says it is not the genuine one, what to do, and links to the setting (${language})`, async () => {
      // The mirror's own uv (and its own matching .sha256); the app pins another.
      mirror = await startRuntimeMirror({ uv: uvStandIn() });
      harness = makeBridge(
        {
          mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload! },
          servers: [{ name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] }],
        },
        { restartBaseMs: 60_000 },
        { env: { ...process.env, PATH: tempDir() }, runtimesDir: tempDir(), runtimePins: pinsOf(uvStandIn()) },
      );
      harness.bridge.start();
      await renderWithBridge(harness, <ServersPage />, language);
      expect(await screen.findByText(message, {}, { timeout: scaled(10_000) })).toBeTruthy();
      expect(screen.getByText(hint)).toBeTruthy();
      expect(screen.getByText(link).closest('a')!.getAttribute('href')).toBe('#/settings?section=mirrors');
      // Not "Uses the app's uv": there is none yet.
      expect(screen.getByText(notYet)).toBeTruthy();
    });
  }
});
