// @vitest-environment jsdom
import fs from 'node:fs';

import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { App } from '../../src/renderer/app';
import { BridgeStore } from '../../src/renderer/store/bridge-store';
import { fixtureServer, slowRestarts } from '../helpers/bridge-harness';
import { bridgeEachTest } from '../helpers/render-app';
import { pinsOf, uvStandIn } from '../helpers/runtime-mirror';
import { tempDirs } from '../helpers/temp-dirs';
import { scaled } from '../helpers/time-scale';

const tempDir = tempDirs('xt-waiting-servers-');
const newBridge = bridgeEachTest();
afterEach(() => {
  window.location.hash = '';
});

const uvx = { name: 'time', transport: 'stdio' as const, command: 'uvx', args: ['mcp-server-time'], env: { FIXTURE_NAME: 'time' } };

async function openWindow(servers: unknown[], options: Parameters<typeof newBridge>[2] = {}) {
  // An endpoint (never connected): without one the overview is the first-run guide.
  const endpoints = [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }];
  const harness = newBridge({ servers, endpoints, ui: { language: 'zh-CN' } } as never, slowRestarts, options);
  harness.bridge.start();
  window.location.hash = '#/servers';
  const store = new BridgeStore(harness.bridge.api);
  await store.load();
  render(<App store={store} />);
  return { harness, store };
}

/** Issue 33: a server waiting for the user to download uv showed a red 失败, and the sidebar counted it failed. */
describe.skipIf(process.platform === 'win32' || fs.existsSync('/usr/bin/uvx'))('a server waiting for uv', () => {
  it('is amber everywhere, says what it waits for, and its card offers the one step: 下载 uv', async () => {
    const { store } = await openWindow([uvx], {
      registryUrl: 'http://127.0.0.1:9/',
      env: { ...process.env, PATH: `${tempDir()}:/usr/bin:/bin` },
      runtimesDir: tempDir(),
      runtimesFetch: 'onRequest',
      runtimePins: pinsOf(uvStandIn()),
    });
    await waitFor(() => expect(store.snapshot.state.servers[0]?.lastErrorCause?.code).toBe('server.runtimeMissing'), {
      timeout: scaled(15_000),
    });
    const card = await waitFor(() => document.getElementById('server-time')!);
    const badge = await within(card).findByText('等待下载 uv');
    expect(badge.className).toContain('warn');
    expect(within(card).queryByText('失败')).toBeNull();
    expect(within(card).getByRole('button', { name: '下载 uv' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: '重试' })).toBeNull();
    const nav = screen.getByRole('navigation');
    const alert = nav.querySelector('.nav-alert')!;
    expect(alert.getAttribute('aria-label')).toBe('等待下载 uv');
    expect(alert.className).toContain('nav-alert-warn');
    expect(nav.textContent).toContain('1 个服务等待你下载 uv');
    expect(nav.textContent).not.toContain('失败');
    // The overview: amber in its headline, and not counted failed under the servers' figure.
    window.location.hash = '#/overview';
    const banner = await screen.findByRole('region', { name: '小智是否正常工作' });
    expect([...banner.querySelectorAll('.warn-text')].map((e) => e.textContent)).toContain(' · 等待下载 uv：time');
    expect(document.querySelector('.stats')?.textContent).not.toContain('失败');
  });
});

describe('停止全部服务 in the sidebar', () => {
  it('is not offered while the only server is switched off (nothing runs to stop)', async () => {
    const { harness } = await openWindow([fixtureServer('fx', {}, { enabled: false })]);
    const nav = screen.getByRole('navigation');
    await waitFor(() => expect(nav.querySelector('.sidebar-footer')).toBeTruthy());
    expect(within(nav).queryByRole('button', { name: '停止全部服务' })).toBeNull();
    const fx = (await harness.bridge.api.getSettings()).servers[0]!;
    await harness.bridge.api.updateServer({ name: 'fx', server: { ...fx, enabled: true } });
    expect(await within(nav).findByRole('button', { name: '停止全部服务' })).toBeTruthy();
  });
});
