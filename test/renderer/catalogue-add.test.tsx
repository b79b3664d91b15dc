// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { serversPageWithFakeNpx } from '../helpers/servers-page';
import { scaled } from '../helpers/time-scale';

/** The servers page opened on the catalogue: a catalogue entry added here really starts (a fake npx runs the fixture). */
const openServers = serversPageWithFakeNpx();
const openCatalogue = (language: 'en' | 'zh-CN', servers: unknown[] = []) => openServers(language, servers, '#/servers?add=catalogue');

/** Issue 33: "Continue" opened the developer form (npx, -y, the package, stdio, JSON), and a new user wondered what to change. */
describe.skipIf(process.platform === 'win32')('adding from the catalogue', () => {
  it('an entry that needs nothing: a short confirm step in plain words, and Add adds and starts it (zh-CN)', async () => {
    const { harness, toasts } = await openCatalogue('zh-CN');
    fireEvent.click(await screen.findByRole('button', { name: '添加 Open-Meteo 天气' }));
    const step = screen.getByRole('dialog');
    expect(within(step).getByRole('heading').textContent).toBe('添加“Open-Meteo 天气”');
    expect(step.textContent).toContain('首次启动会下载所需程序，大约需要一分钟。');
    // No developer words in the step.
    expect(step.textContent).not.toMatch(/npx|stdio|JSON|-y\b|open-meteo-mcp-server/);
    fireEvent.click(within(step).getByRole('button', { name: '添加' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toasts).toContainEqual({ message: '已添加“Open-Meteo 天气”，正在启动…', kind: 'info' });
    expect(harness.store.load().servers).toMatchObject([{ name: 'weather', command: 'npx', args: ['-y', 'open-meteo-mcp-server'] }]);
    const card = document.getElementById('server-weather')!;
    expect(card).toBeTruthy();
    await waitFor(() => expect(within(card).getByText('运行中')).toBeTruthy(), { timeout: scaled(15_000) });
  });

  it('an entry with values: its Add button adds it, with no developer form between (en)', async () => {
    const { harness } = await openCatalogue('en');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Memory (knowledge graph)' }));
    const step = screen.getByRole('dialog');
    expect(within(step).queryByRole('button', { name: 'Continue' })).toBeNull();
    fireEvent.click(within(step).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(harness.store.load().servers.map((s) => s.name)).toEqual(['memory']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByLabelText('Command')).toBeNull();
  });

  it('the developer form stays one click away, filled in (en)', async () => {
    await openCatalogue('en');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Open-Meteo weather' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Advanced settings' }));
    expect((screen.getByLabelText('Command') as HTMLInputElement).value).toBe('npx');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('weather');
  });

  it('a copy of a server already held is flagged before it is added, under a name of its own (zh-CN)', async () => {
    const { harness } = await openCatalogue('zh-CN', [
      { name: 'weather', transport: 'stdio', command: 'npx', args: ['-y', 'open-meteo-mcp-server'], enabled: false },
    ]);
    fireEvent.click(await screen.findByRole('button', { name: '添加 Open-Meteo 天气' }));
    const step = screen.getByRole('dialog');
    expect(step.textContent).toContain('它运行的程序和“weather”相同。');
    fireEvent.click(within(step).getByRole('button', { name: '添加' }));
    await waitFor(() => expect(harness.store.load().servers.map((s) => s.name)).toEqual(['weather', 'weather-2']));
  });
});
