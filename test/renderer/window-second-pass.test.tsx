// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';

import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Menu } from '../../src/renderer/components/menu';
import { AddEndpointForm, EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { ImportDialog } from '../../src/renderer/pages/import-dialog';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { ServerEditor } from '../../src/renderer/pages/server-editor';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { SettingsPage } from '../../src/renderer/pages/settings-page';
import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { TryToolDialog } from '../../src/renderer/pages/try-tool-dialog';
import type { CatalogTool } from '../../src/shared/status';
import { defaultSetTools, fixtureServer, type Harness, makeBridge, slowRestarts, tearDown } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

let harness: Harness | undefined;
let xiaozhi: FakeXiaozhi | undefined;
afterEach(async () => {
  cleanup();
  await tearDown(harness, xiaozhi);
  harness = xiaozhi = undefined;
});

const crashing = "process.stderr.write('Traceback (most recent call last):\\nValueError: bad key\\n'); process.exit(1)";

describe('failures are explained, in the language of the window', () => {
  it('a crash-looping server shows its output and why while it loops (zh-CN)', async () => {
    harness = makeBridge(
      { servers: [{ name: 'py', transport: 'stdio', command: process.execPath, args: ['-e', crashing] }] },
      slowRestarts,
    );
    harness.bridge.start();
    const { store } = await renderWithBridge(harness, <ServersPage />, 'zh-CN');
    await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('restarting'), { timeout: scaled(10_000) });
    expect(await screen.findByText('程序停止运行：ValueError: bad key')).toBeTruthy();
    expect(screen.getByText(/同样的错误通常会再次出现/)).toBeTruthy();
    expect(screen.getByText(/^Traceback[\s\S]*ValueError: bad key$/, { selector: '.stderr pre' })).toBeTruthy();
    // And the server card has its own switch and a link to its logs.
    expect((screen.getByRole('switch', { name: '运行 py' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('link', { name: '日志' }).getAttribute('href')).toBe('#/logs?source=server%3Apy');
  });

  it('form validation speaks Chinese in the Chinese window', async () => {
    harness = makeBridge({});
    await renderWithBridge(harness, <ServerEditor existingNames={[]} onClose={() => undefined} />, 'zh-CN');
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('必填。')).toBeTruthy();
    expect(screen.getByText('请填写要运行的程序，例如 npx 或 uvx。')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/must (not|name|be)/);
    // No placeholder that looks like a value already filled in.
    for (const input of Array.from(document.querySelectorAll('input, textarea'))) expect(input.getAttribute('placeholder')).toBeNull();
  });

  it('an endpoint refused with 401 says the token is wrong or expired (zh-CN)', async () => {
    const http = await import('node:http');
    const server = http.createServer((_req, res) => res.writeHead(401).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      harness = makeBridge({
        endpoints: [{ id: 'e', name: 'home', url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/mcp/?token=abc` }],
      });
      harness.bridge.start();
      await renderWithBridge(harness, <EndpointsPage />, 'zh-CN');
      expect(await screen.findByText('凭据被拒绝（HTTP 401）。', {}, { timeout: scaled(5000) })).toBeTruthy();
      expect(screen.getByText('令牌或 API 密钥错误或已过期：请重新复制。')).toBeTruthy();
    } finally {
      server.close();
    }
  });
});

describe('the endpoint form', () => {
  it('reveals the URL on request, labels the switch, and tests a connection step by step', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ servers: [fixtureServer('fx')], endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url(), enabled: false }] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <AddEndpointForm />);
    const url = screen.getByLabelText('Endpoint URL') as HTMLInputElement;
    expect(url.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show the URL' }));
    expect(url.type).toBe('text');
    fireEvent.change(url, { target: { value: xiaozhi.url() } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const session = await xiaozhi.connection(0);
    await session.initialize();
    await session.listAllTools();
    const result = await screen.findByRole('region', { name: 'Connection test' }, { timeout: scaled(5000) });
    expect(within(result).getByText('Reachable')).toBeTruthy();
    expect(within(result).getByText('Endpoint address accepted')).toBeTruthy();
    expect(within(result).getByText(/^xiaozhi read the tool list: your \d+ tools?$/)).toBeTruthy();
    expect(within(result).getByText(/^Took /)).toBeTruthy();
    cleanup();
    await renderWithBridge(harness, <EndpointsPage />);
    // The switch says what it does, not only to screen readers.
    expect(screen.getByText('Connect', { selector: '.switch-label' })).toBeTruthy();
  });
});

describe('the try dialog', () => {
  const tool: CatalogTool = {
    name: 'nope',
    server: 's',
    originalName: 'nope',
    description: 'A tool that is gone',
    enabled: true,
    bytes: 100,
    inputSchema: {
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
        unit: { enum: [1, 2], default: 2 },
        mode: { type: 'string', default: 'fast' },
        loud: { type: 'boolean', default: true },
      },
      required: ['count'],
    },
  };

  it('starts from the schema defaults, keeps types and ranges, and Enter runs it (zh-CN)', async () => {
    harness = makeBridge({});
    const call = vi.spyOn(harness.bridge.api, 'callTool');
    await renderWithBridge(harness, <TryToolDialog tool={tool} onClose={() => undefined} />, 'zh-CN');
    const count = screen.getByLabelText('count *') as HTMLInputElement;
    expect(count.value).toBe('3');
    expect(count.type).toBe('number');
    expect((screen.getByLabelText('unit') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('2');
    expect((screen.getByLabelText('mode') as HTMLInputElement).value).toBe('fast');
    expect((screen.getByLabelText('loud') as HTMLInputElement).checked).toBe(true);
    fireEvent.change(count, { target: { value: '11' } });
    fireEvent.submit(count.form as HTMLFormElement);
    expect(await screen.findByText('不能大于 10。')).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
    fireEvent.change(count, { target: { value: '4' } });
    fireEvent.submit(count.form as HTMLFormElement);
    await waitFor(() => expect(call).toHaveBeenCalledWith({ name: 'nope', arguments: { count: 4, unit: 2, mode: 'fast', loud: true } }));
    // The engine's reason, worded in Chinese above the exact text xiaozhi gets.
    expect(await screen.findByText('已没有名为“nope”的工具。')).toBeTruthy();
    // The close button has a name.
    expect(screen.getAllByRole('button', { name: '关闭' }).map((b) => b.className)).toContain('dialog-close');
    expect(screen.queryByRole('button', { name: '×' })).toBeNull();
  });
});

describe('counts, plurals and empty searches', () => {
  it('says "1 call", marks a partly-on server as mixed, edits a description, and explains an empty search', async () => {
    harness = makeBridge({
      servers: [fixtureServer('fx')],
      toolSets: [{ id: 'all', name: 'all', servers: 'all', tools: { fx: { fail: { enabled: false } } } }],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'x' } });
    const { store } = await renderWithBridge(harness, <ToolsPage />);
    expect(await screen.findByText('1 call since the app started')).toBeTruthy();
    const group = screen.getByRole('checkbox', { name: 'All tools of fx' });
    expect(group.getAttribute('aria-checked')).toBe('mixed');

    // "Describe" and "Try" are buttons of the same kind, side by side: both bordered.
    expect(screen.getByRole('button', { name: 'Edit the description of echo' }).className).toBe(
      screen.getByRole('button', { name: 'Try echo' }).className,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Edit the description of echo' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '复读一句话' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(store.snapshot.catalog.find((t) => t.name === 'echo')?.description).toBe('复读一句话'));
    expect(defaultSetTools(harness.store.load()).fx?.echo?.description).toBe('复读一句话');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search tools' }), { target: { value: 'zzz-nothing' } });
    expect(screen.getByText('No tool matches "zzz-nothing".')).toBeTruthy();
  });

  /** The fixture server running, and an endpoint that is switched off. */
  const settledWithOneServer = async () => {
    const started = makeBridge({
      servers: [fixtureServer('fx')],
      endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }],
    });
    started.bridge.start();
    await started.bridge.whenServersSettled();
    return started;
  };

  it("counts today's calls the way the list shows them (calls from the window too)", async () => {
    harness = await settledWithOneServer();
    await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'x' } });
    await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'y' } });
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />);
    // Counted as Activity counts them (the last 24 hours, across restarts).
    await waitFor(() => expect(within(screen.getByText('calls in 24 hours').parentElement as HTMLElement).getByText('2')).toBeTruthy());
    expect(screen.getAllByText('This window')).toHaveLength(2);
  });

  it("the overview's counts read as sentences in each language, the number where the language puts it", async () => {
    harness = await settledWithOneServer();
    await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'x' } });
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    const figures = () => [...document.querySelectorAll('.stat-figure')].map((el) => el.textContent?.replace(/\s+/g, ' ').trim());
    // The fixture's 12 tools; the bridge's own 2 (task_status, cancel_task) are not the user's.
    await waitFor(() => expect(figures()).toEqual(['1/1 个服务运行中', '已提供 12 个工具', '24 小时内调用 1 次']));
    cleanup();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'en');
    await waitFor(() => expect(figures()).toEqual(['1/1 servers running', '12 tools served', '1 call in 24 hours']));
  });

  it('the off switch is visible: at least 3:1 against its background in both themes', () => {
    const css = fs.readFileSync(path.resolve(__dirname, '../../src/renderer/styles.css'), 'utf8');
    const value = (block: string, name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(block)?.[1] as string;
    const light = css.slice(css.indexOf(':root {'), css.indexOf(":root[data-theme='dark']"));
    const dark = css.slice(css.indexOf(":root[data-theme='dark']"));
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5]
        .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
        .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a: string, b: string) => {
      const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
      return (x + 0.05) / (y + 0.05);
    };
    expect(css).toMatch(/\.switch-track \{[^}]*background: var\(--switch-off\)/);
    for (const theme of [light, dark]) {
      expect(contrast(value(theme, 'switch-off'), value(theme, 'panel'))).toBeGreaterThanOrEqual(3);
      expect(contrast(value(theme, 'switch-off'), value(theme, 'bg'))).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('settings and import', () => {
  it('keeps a ModelScope key, masked', async () => {
    harness = makeBridge({});
    await renderWithBridge(harness, <SettingsPage />);
    const field = screen.getByLabelText('ModelScope API key');
    fireEvent.change(field, { target: { value: 'ms-1234567890abcdef' } });
    fireEvent.click(within(field.closest('form') as HTMLElement).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(harness!.store.load().modelscope.apiKey).toBe('ms-1234567890abcdef'));
    expect(await screen.findByText(/A key is set \(ms-1…\(redacted\)\)/)).toBeTruthy();
    expect(document.body.textContent).not.toContain('ms-1234567890abcdef');
  });

  it('shows the environment a file brings in, secrets masked', async () => {
    harness = makeBridge({});
    const text = fs.readFileSync(path.resolve(__dirname, '../fixtures/import/claude_desktop_config.json'), 'utf8');
    const preview = await harness.bridge.api.previewImport({ source: 'claude_desktop_config.json', text });
    await renderWithBridge(harness, <ImportDialog preview={preview} onClose={() => undefined} />);
    expect(screen.getByText('Detected: Claude Desktop. Nothing changes until you apply.')).toBeTruthy();
    const env = screen.getByLabelText('Environment variables');
    expect(within(env).getByText('GITHUB_PERSONAL_ACCESS_TOKEN')).toBeTruthy();
    expect(within(env).getByText('ghp_…(redacted)')).toBeTruthy();
    expect(document.body.textContent).not.toContain('ghp_exampletoken1234567890');
  });
});

describe('menus take the keyboard', () => {
  it('ArrowDown opens on the first item, arrows move, Escape closes and gives focus back', async () => {
    harness = makeBridge({});
    const picked = vi.fn();
    await renderWithBridge(
      harness,
      <Menu
        label="Export"
        items={[
          { label: 'One', onSelect: () => picked('one') },
          { label: 'Two', onSelect: () => picked('two') },
          { label: 'Three', onSelect: () => picked('three') },
        ]}
      />,
    );
    const button = screen.getByRole('button', { name: 'Export' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('One'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Two'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Three'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('One'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(document.activeElement).toBe(button);
  });
});
