// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { RuntimeLine } from '../../src/renderer/components/runtime-line';
import { FIXTURE, makeBridge, type Harness } from '../helpers/bridge-harness';
import { startRuntimeMirror, uvStandIn, type RuntimeMirror } from '../helpers/runtime-mirror';
import { renderWithBridge } from '../helpers/render-app';
import { tempDirs } from '../helpers/temp-dirs';

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
    ['en', 'Fetching uv 0.10.10 for this server…', 'Getting uv', "Uses the app's uv 0.10.10"],
    ['zh-CN', '正在为该服务下载 uv 0.10.10…', '正在获取 uv', '使用应用自带的 uv 0.10.10'],
  ] as const) {
    it(`shows the app's download with its progress, then the app's runtime (${language})`, async () => {
      mirror = await startRuntimeMirror({ uv: uvStandIn() });
      const release = mirror.hold('uv');
      harness = makeBridge(
        {
          mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload! },
          servers: [{ name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] }],
        },
        undefined,
        { env: { ...process.env, PATH: tempDir() }, runtimesDir: tempDir() },
      );
      harness.bridge.start();
      await renderWithBridge(harness, <ServersPage />, language);
      expect((await screen.findByRole('status')).textContent).toMatch(new RegExp(`^${fetching}`));
      expect(screen.getByText(badge)).toBeTruthy();
      expect(screen.getByRole('progressbar', { name: fetching })).toBeTruthy();
      release();
      expect(await screen.findByText(uses, {}, { timeout: 15_000 })).toBeTruthy();
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

  it("says the user's own runtime runs it", async () => {
    const bin = tempDir();
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    harness = makeBridge({ servers: [{ name: 'fx', transport: 'stdio', command: 'node', args: [FIXTURE] }] }, undefined, {
      env: { ...process.env, PATH: bin },
      runtimesDir: tempDir(),
    });
    harness.bridge.start();
    await renderWithBridge(harness, <ServersPage />, 'en');
    expect(await screen.findByText('Uses your Node.js')).toBeTruthy();
  });
});
