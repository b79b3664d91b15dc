// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
import { AddEndpointForm, EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { en } from '../../src/shared/i18n/en';
import { fixtureServer } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

const newBridge = bridgeEachTest();

describe('English counts go through plurals', () => {
  it('the endpoint card says "your 12 tools", its size "in 1 page" (not "page(s)") in the tooltip', async () => {
    const harness = newBridge({
      servers: [fixtureServer('fx')],
      endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <EndpointsPage />);
    const count = await waitFor(() => document.querySelector('.served-count') as HTMLElement);
    // The fixture's 12 tools; the bridge's own 2 (task_status, cancel_task) are not the person's (issue 33).
    expect(count.textContent).toBe('xiaozhi gets your 12 tools directly');
    expect(count.title).toMatch(/^[\d.]+\s[KM]?B in 1 page$/);
  });

  it('no English text counts with "(s)" or puts a count before a plural noun without a plural form', () => {
    for (const [key, text] of Object.entries(en)) {
      expect(text, key).not.toMatch(/\w\(s\)/);
      // "{count} tools", "{servers} servers": a bare number before a noun in the plural reads "1 tools".
      expect(text, key).not.toMatch(/\{(count|servers|tools|pages|n)\} (tools|servers|pages|calls|lines|items|endpoints)\b/);
    }
  });
});

describe('the catalogue asks for what an entry needs in words that read in each language', () => {
  const open = async (language: 'en' | 'zh-CN', title: string) => {
    const harness = newBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
      language,
    );
    fireEvent.click(await screen.findByRole('button', { name: title }));
    return screen.getByRole('dialog');
  };

  it('the heading names the entry as a title, not inside "What … needs" (en)', async () => {
    const dialog = await open('en', 'ModelScope-hosted server');
    expect(within(dialog).getByRole('heading').textContent).toBe('Set up ModelScope-hosted server');
  });

  it('an optional value is marked with full-width brackets in Chinese', async () => {
    const dialog = await open('zh-CN', '时间与时区');
    expect(within(dialog).getByRole('heading').textContent).toBe('配置“时间与时区”');
    expect(within(dialog).getByLabelText('你的时区（可选）')).toBeTruthy();
  });
});

describe('the add-endpoint form', () => {
  it('drops the connection test result once the endpoint is added (it would describe a URL no longer in the form)', async () => {
    // A port that was free a moment ago: nothing listens, the test says "refused".
    const net = await import('node:net');
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const harness = newBridge({});
    harness.bridge.start();
    await renderWithBridge(harness, <AddEndpointForm />);
    fireEvent.change(screen.getByLabelText('Endpoint URL'), { target: { value: `ws://127.0.0.1:${port}/mcp/?token=abc` } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByRole('region', { name: 'Connection test' }, { timeout: scaled(5000) })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() => expect(harness?.store.load().endpoints).toHaveLength(1));
    await waitFor(() => expect((screen.getByLabelText('Endpoint URL') as HTMLInputElement).value).toBe(''));
    expect(screen.queryByRole('region', { name: 'Connection test' })).toBeNull();
  });
});

describe('the catalogue search', () => {
  it('lists the entries whose name or category matches first, then those that only mention the word', async () => {
    const harness = newBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
      'zh-CN',
    );
    await screen.findByRole('button', { name: '高德地图' });
    const titles = () => [...document.querySelectorAll('.catalogue-title')].map((el) => el.textContent);
    fireEvent.change(screen.getByRole('searchbox', { name: '搜索服务' }), { target: { value: '天气' } });
    // Amap and Baidu mention weather in their descriptions: they come after the weather servers.
    expect(titles().slice(0, 2)).toEqual(['Open-Meteo 天气', '和风天气']);
    expect(titles()).toContain('高德地图');
    fireEvent.change(screen.getByRole('searchbox', { name: '搜索服务' }), { target: { value: '计算' } });
    expect(titles()[0]).toBe('计算器');
    cleanup();
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
      'en',
    );
    await screen.findByRole('button', { name: 'Tavily web search' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search servers' }), { target: { value: 'search' } });
    expect(titles().slice(0, 3)).toEqual(['Tavily web search', 'Brave Search', 'DuckDuckGo search']);
  });
});
