// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { maskSecret, redactUrl } from '../../src/main/core/logs/redact';
import { shownMasked, shownMaskedIn, wireMasked } from '../../src/renderer/masked';
import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { ImportDialog } from '../../src/renderer/pages/import-dialog';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { ServerEditor } from '../../src/renderer/pages/server-editor';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { SettingsPage } from '../../src/renderer/pages/settings-page';
import { translator } from '../../src/shared/i18n/translate';
import { MASK_MARKER } from '../../src/shared/masked';
import type { SettingsInput } from '../../src/shared/settings';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2VuLXZhbHVl.sig';
const API_KEY = 'sk-live-0123456789abcdef';
/** An endpoint, a stdio server with a secret argument and env value, a remote one with a secret header, the local token, a ModelScope key. */
const secrets: SettingsInput = {
  endpoints: [{ id: 'e1', name: 'home', url: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}`, enabled: false }],
  servers: [
    {
      name: 'search',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'search-mcp', `--api-key=${API_KEY}`],
      env: { SEARCH_API_KEY: API_KEY },
      enabled: false,
    },
    {
      name: 'remote',
      transport: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: `Bearer ${API_KEY}` },
      enabled: false,
    },
  ],
  localServer: { token: 'local-token-0123456789' },
  modelscope: { apiKey: 'ms-0123456789abcdef' },
};

/** Everything the window shows as text or in a field. */
// Tooltips too: an endpoint card's whole masked address is its tooltip (walkthrough 4).
const shownText = () =>
  `${document.body.textContent ?? ''}\n${[...document.querySelectorAll('input, textarea')].map((el) => (el as HTMLInputElement).value).join('\n')}\n${[
    ...document.querySelectorAll('[title]'),
  ]
    .map((el) => el.getAttribute('title'))
    .join('\n')}`;

describe('masked values in the window', () => {
  it('the marker is the one the engine writes, shown in the window language and sent back as written', () => {
    expect(maskSecret(API_KEY)).toBe(`sk-l${MASK_MARKER}`);
    expect(redactUrl(`wss://api.xiaozhi.me/mcp/?token=${TOKEN}`)).toContain(MASK_MARKER);
    const zh = translator('zh-CN');
    expect(shownMasked(`wss://api.xiaozhi.me/mcp/?token=eyJh${MASK_MARKER}`, zh)).toBe('wss://api.xiaozhi.me/mcp/?token=eyJh…（已隐藏）');
    expect(shownMasked(`a${MASK_MARKER} b${MASK_MARKER}`, translator('en'))).toBe(`a${MASK_MARKER} b${MASK_MARKER}`);
    const server = { env: { KEY: `sk-l${MASK_MARKER}` }, args: [`--token=ab${MASK_MARKER}`], enabled: true, port: 3 };
    expect(shownMaskedIn(server, zh)).toEqual({ env: { KEY: 'sk-l…（已隐藏）' }, args: ['--token=ab…（已隐藏）'], enabled: true, port: 3 });
    expect(wireMasked(shownMaskedIn(server, zh), zh)).toEqual(server);
  });

  it.each([
    ['the overview', () => <OverviewPage go={() => undefined} />],
    ['the endpoints page', () => <EndpointsPage />],
    ['the servers page', () => <ServersPage />],
    ['the settings page', () => <SettingsPage />],
  ])('%s shows masked values with the Chinese marker (zh-CN)', async (_name, page) => {
    const harness = newBridge(secrets);
    await renderWithBridge(harness, page(), 'zh-CN');
    await waitFor(() => expect(shownText()).toContain('…（已隐藏）'));
    expect(shownText()).not.toContain('(redacted)');
    for (const secret of [TOKEN, API_KEY, 'local-token-0123456789', 'ms-0123456789abcdef']) expect(shownText()).not.toContain(secret);
  });

  it('the server editor shows masked env values and headers in Chinese and keeps the real ones when saved', async () => {
    const harness = newBridge(secrets);
    const masked = (await harness.bridge.api.getSettings()).servers;
    const onClose = vi.fn();
    await renderWithBridge(
      harness,
      <ServerEditor server={masked[0]} existingNames={masked.map((s) => s.name)} onClose={onClose} />,
      'zh-CN',
    );
    expect((screen.getByLabelText('值 1') as HTMLInputElement).value).toBe('sk-l…（已隐藏）');
    expect(shownText()).not.toContain('(redacted)');
    fireEvent.change(screen.getByLabelText('命令'), { target: { value: 'uvx' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(harness.store.load().servers[0]).toMatchObject({ command: 'uvx', env: { SEARCH_API_KEY: API_KEY } });
    cleanup();

    const remote = (await harness.bridge.api.getSettings()).servers[1];
    const closed = vi.fn();
    await renderWithBridge(harness, <ServerEditor server={remote} existingNames={masked.map((s) => s.name)} onClose={closed} />, 'zh-CN');
    expect((screen.getByLabelText('值 1') as HTMLInputElement).value).toBe('Bear…（已隐藏）');
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(closed).toHaveBeenCalled());
    expect(harness.store.load().servers[1]).toMatchObject({ headers: { Authorization: `Bearer ${API_KEY}` } });
  });

  it('the import preview shows masked env values and endpoint tokens in Chinese', async () => {
    const harness = newBridge({});
    const text = JSON.stringify({
      mcpEndpoint: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}`,
      mcpServers: { search: { command: 'npx', args: ['search-mcp'], env: { SEARCH_API_KEY: API_KEY } } },
    });
    const preview = await harness.bridge.api.previewImport({ source: 'xiaozhi.config.json', text });
    await renderWithBridge(harness, <ImportDialog preview={preview} onClose={() => undefined} />, 'zh-CN');
    expect(shownText()).toContain('…（已隐藏）');
    expect(shownText()).not.toContain('(redacted)');
    expect(shownText()).not.toContain(API_KEY);
  });
});
