// @vitest-environment jsdom
import fs from 'node:fs';

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { RuntimeDownload } from '../../src/renderer/components/runtime-download';
import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { slowRestarts } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { pinsOf, type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../helpers/runtime-mirror';
import { tempDirs } from '../helpers/temp-dirs';
import { scaled } from '../helpers/time-scale';

const tempDir = tempDirs('xt-runtime-download-');
let mirror: RuntimeMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});
const newBridge = bridgeEachTest();

const uv = uvStandIn();
const uvx = { name: 'time', transport: 'stdio' as const, command: 'uvx', args: ['mcp-server-time'], env: { FIXTURE_NAME: 'time' } };

/** A headless run with its web page and no uv: a download only when the person asks. */
async function headless(m: RuntimeMirror, servers: (typeof uvx)[]) {
  const harness = newBridge({ mirrors: { preset: 'custom', uvDownload: m.urls.uvDownload! }, servers }, slowRestarts, {
    registryUrl: 'http://127.0.0.1:9/',
    env: { ...process.env, PATH: `${tempDir()}:/usr/bin:/bin` },
    runtimesDir: tempDir(),
    runtimesFetch: 'onRequest',
    runtimePins: pinsOf(uv),
  });
  harness.bridge.start();
  return harness;
}

/** Issue 33: the headless web page said uv was missing, and only a restart with --fetch-runtimes fetched it. */
describe.skipIf(process.platform === 'win32' || fs.existsSync('/usr/bin/uvx'))('Download uv in the window', () => {
  for (const [language, button, done] of [
    ['en', 'Download uv', /^uv 0\.\d+\.\d+ downloaded: the servers that need it start by themselves\.$/],
    ['zh-CN', '下载 uv', /^已下载 uv 0\.\d+\.\d+：需要它的服务会自动启动。$/],
  ] as const) {
    it(`on the card of a server waiting for it: downloads, says so, and the server starts (${language})`, async () => {
      mirror = await startRuntimeMirror({ uv });
      const release = mirror.hold('uv');
      const harness = await headless(mirror, [uvx]);
      const { store } = await renderWithBridge(harness, <ServersPage />, language);
      await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('failed'), { timeout: scaled(15_000) });
      const card = document.getElementById('server-time')!;
      fireEvent.click(await within(card).findByRole('button', { name: button }));
      // Under way: said, with a progress bar, and the button cannot be pressed twice.
      expect(await within(card).findByRole('progressbar')).toBeTruthy();
      expect(within(card).queryByRole('button', { name: button })).toBeNull();
      release();
      expect(await within(card).findByText(done, {}, { timeout: scaled(30_000) })).toBeTruthy();
      await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('running'), { timeout: scaled(30_000) });
    });
  }

  it('in the catalogue, where an entry needs uv: said once, with no second button beside 添加', async () => {
    mirror = await startRuntimeMirror({ uv });
    const harness = await headless(mirror, []);
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
      'zh-CN',
    );
    const entry = (await screen.findByRole('button', { name: '添加 时间与时区' })).closest('li')!;
    // A normal state said calmly: not in amber, plain words first, uv named once after them.
    const note = within(entry).getByText('需要先下载运行它的程序（uv），添加时会自动下载');
    expect(note.className).not.toContain('catalogue-runtime-missing');
    expect(within(entry).queryByRole('button', { name: '下载 uv' })).toBeNull();
  });

  /** A walkthrough: 添加 was allowed while uv was missing, beside a separate 下载 uv; which first was not said. */
  it('adding an entry whose runtime is missing: one button downloads it, then adds the server, which starts (zh-CN)', async () => {
    mirror = await startRuntimeMirror({ uv });
    const release = mirror.hold('uv');
    const harness = await headless(mirror, []);
    const added: string[] = [];
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} onAdded={(n) => added.push(n)} />,
      'zh-CN',
    );
    fireEvent.click(await screen.findByRole('button', { name: '添加 时间与时区' }));
    const step = screen.getByRole('dialog');
    expect(step.textContent).toContain('这台电脑上还没有 uv。点“下载 uv 并添加”，应用会先下载它，再添加并启动这个服务。');
    // What uv is for, said once before its name, and where it comes from (a walkthrough: 下载 uv from GitHub in China, unsaid).
    // A normal step (the app downloads uv itself) is said calmly: not in amber (walkthrough 4).
    expect(step.querySelector('.catalogue-runtime-missing')).toBeNull();
    const note = step.querySelector('.add-notes li')!.textContent!;
    expect(note.startsWith('运行 Python 服务所需的程序（uv）将从你填写的下载源下载，可以在“设置 → 下载源”中更改。')).toBe(true);
    // One action: no 添加 that would make a server that cannot start, no second 下载 uv.
    expect(within(step).queryByRole('button', { name: '添加' })).toBeNull();
    expect(within(step).queryByRole('button', { name: '下载 uv' })).toBeNull();
    fireEvent.click(within(step).getByRole('button', { name: '下载 uv 并添加' }));
    expect(await within(step).findByRole('progressbar')).toBeTruthy();
    // Nothing is added while uv is on its way.
    expect(harness.store.load().servers).toEqual([]);
    release();
    await waitFor(() => expect(added).toEqual(['time']), { timeout: scaled(30_000) });
    await waitFor(async () => expect((await harness.bridge.api.getState()).servers[0]?.state).toBe('running'), { timeout: scaled(30_000) });
  });

  for (const [language, said] of [
    ['zh-CN', '运行 Python 服务所需的程序（uv）将从中国大陆镜像下载：这是按这台电脑的语言和时区自动选的，可以在“设置 → 下载源”中更改。'],
    [
      'en',
      'The program Python servers need to run (uv) comes from the official sources; you can change this in Settings → Download sources.',
    ],
  ] as const)
    it(`Download uv says what uv is for and where it comes from, before the button (${language})`, async () => {
      const harness = newBridge(
        { ui: { language }, ...(language === 'en' ? { mirrors: { preset: 'default' as const } } : {}) },
        slowRestarts,
        { runtimesDir: tempDir(), runtimesFetch: 'onRequest' },
      );
      await renderWithBridge(harness, <RuntimeDownload runtime="uv" />, language);
      const button = await screen.findByRole('button', { name: language === 'en' ? 'Download uv' : '下载 uv' });
      expect(button.closest('.runtime-download')!.textContent!.startsWith(said)).toBe(true);
    });

  it('closing the dialog while uv downloads adds nothing: the person left without adding', async () => {
    mirror = await startRuntimeMirror({ uv });
    const release = mirror.hold('uv');
    const harness = await headless(mirror, []);
    const { store, unmount } = await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
      'en',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Add Time and time zones' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Download uv and add' }));
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    unmount();
    release();
    // The same download (one at a time): answered when the dialog's own ends; then the window's
    // requests after it (the settings read again, the add it would send) have had their turn.
    expect(await harness.bridge.api.fetchRuntime({ runtime: 'uv' })).toMatchObject({ version: expect.any(String) });
    await store.refreshSettings();
    await store.refreshSettings();
    expect((await harness.bridge.api.getSettings()).servers).toEqual([]);
  });

  it('a download that fails adds nothing, says why, and can be tried again (en)', async () => {
    mirror = await startRuntimeMirror({});
    const harness = await headless(mirror, []);
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
      'en',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Add Time and time zones' }));
    const step = screen.getByRole('dialog');
    fireEvent.click(within(step).getByRole('button', { name: 'Download uv and add' }));
    expect(await within(step).findByText(/^uv could not be fetched/, {}, { timeout: scaled(30_000) })).toBeTruthy();
    expect(within(step).getByRole('button', { name: 'Download uv and add' })).toBeTruthy();
    expect(harness.store.load().servers).toEqual([]);
    // Walkthrough 4: "its first start downloads what it needs: about a minute" stayed under the failure.
    expect(within(step).queryByText(/first start downloads/)).toBeNull();
  });

  it('says why a download failed, in the reader’s language, and offers it again', async () => {
    mirror = await startRuntimeMirror({});
    const harness = await headless(mirror, [uvx]);
    const { store } = await renderWithBridge(harness, <ServersPage />, 'zh-CN');
    await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('failed'), { timeout: scaled(15_000) });
    const card = document.getElementById('server-time')!;
    fireEvent.click(await within(card).findByRole('button', { name: '下载 uv' }));
    expect(await within(card).findByText(/^无法下载 uv：/, {}, { timeout: scaled(30_000) })).toBeTruthy();
    expect(within(card).getByRole('button', { name: '下载 uv' })).toBeTruthy();
  });

  it('a download site it cannot reach is named in plain words; the address and code only in the technical detail', async () => {
    // Shot 23 of the new user's walk: "无法下载 uv：https://github.com/…tar.gz: ENOTFOUND". Here the mirror is gone (its port refuses).
    const gone = await startRuntimeMirror({});
    const harness = await headless(gone, [uvx]);
    await gone.close();
    const { store } = await renderWithBridge(harness, <ServersPage />, 'zh-CN');
    await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('failed'), { timeout: scaled(15_000) });
    const card = document.getElementById('server-time')!;
    fireEvent.click(await within(card).findByRole('button', { name: '下载 uv' }));
    expect(await within(card).findByText('连不上下载 uv 的网站（127.0.0.1）。', {}, { timeout: scaled(30_000) })).toBeTruthy();
    expect(
      within(card)
        .queryByText(/ECONNREFUSED/)
        ?.closest('details'),
    ).toBeTruthy();
    expect(within(card).getByText('技术细节')).toBeTruthy();
  });
});
