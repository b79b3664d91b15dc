// @vitest-environment jsdom
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { clientToken } from '../../src/main/core/local-server/client-tokens';
import { AddToClientDialog } from '../../src/renderer/pages/add-to-client-dialog';
import { LocalServerSection } from '../../src/renderer/pages/local-server-section';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

const TOKEN = 'window-local-token-0123456789abcdef';
let harness: Harness | undefined;
let copied: string[] = [];
let home: string;

beforeEach(() => {
  copied = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void copied.push(text) },
  });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-window-tokens-'));
  // Stubbed, so that a variable that was unset is unset again after (assigning undefined back
  // leaves the string "undefined": a relative config folder for every later file of the worker).
  vi.stubEnv('HOME', home);
  vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
});
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
  vi.unstubAllEnvs();
  fs.rmSync(home, { recursive: true, force: true });
});

describe("the window's local server panel: each app's own token", () => {
  it("copies Cursor's own token from Cursor's row, and the app's token from the token field (zh-CN)", async () => {
    harness = makeBridge({ localServer: { port: 0, token: TOKEN } });
    await renderWithBridge(harness, <LocalServerSection />, 'zh-CN');
    const cursorRow = (await screen.findByText('Cursor')).closest('tr') as HTMLElement;
    fireEvent.click(within(cursorRow).getByRole('button', { name: '复制令牌' }));
    await waitFor(() => expect(copied).toEqual([clientToken(TOKEN, 'cursor')]));
    // Claude Desktop's entry runs connect, which finds its token by itself: nothing to copy there.
    const claudeRow = screen.getByText('Claude Desktop').closest('tr') as HTMLElement;
    expect(within(claudeRow).queryByRole('button', { name: '复制令牌' })).toBeNull();
    expect(document.body.textContent).toContain('下方每个应用都有自己的令牌');
    const tokenRow = (screen.getByLabelText('令牌') as HTMLElement).closest('.copy-row') as HTMLElement;
    fireEvent.click(within(tokenRow).getByRole('button', { name: '复制' }));
    await waitFor(() => expect(copied).toEqual([clientToken(TOKEN, 'cursor'), TOKEN]));
  });
});

describe('"Add to Cursor" while the local server is off', () => {
  it('warns that Cursor cannot connect, starts the server when asked, and marks the row 已添加 afterwards (zh-CN)', async () => {
    harness = makeBridge({ localServer: { port: 0, token: TOKEN } });
    harness.bridge.start();
    await renderWithBridge(harness, <LocalServerSection />, 'zh-CN');
    const cursorRow = (await screen.findByText('Cursor')).closest('tr') as HTMLElement;
    expect(within(cursorRow).queryByText('已添加')).toBeNull();
    fireEvent.click(within(cursorRow).getByRole('button', { name: '添加到 Cursor' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('本机 MCP 服务没有运行，Cursor 现在连不上你的工具。添加时会开启它。')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '现在启动' }));
    await waitFor(() => expect(within(dialog).queryByText(/本机 MCP 服务没有运行/)).toBeNull());
    expect(harness.store.load().localServer.enabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: '添加' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(cursorRow).getByText('已添加')).toBeTruthy();
    expect(fs.readFileSync(path.join(home, '.cursor', 'mcp.json'), 'utf8')).toContain('/mcp/cursor');
  });
});

describe("the window's local server panel when its port is taken", () => {
  it('says so in Chinese, with where to choose another port', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      harness = makeBridge({ localServer: { enabled: true, port, token: TOKEN } });
      harness.bridge.start();
      await renderWithBridge(harness, <LocalServerSection />, 'zh-CN');
      await screen.findByText(`端口 ${port} 已被其他程序（或另一个小智托盘）占用。`);
      expect(document.body.textContent).toContain('请在“设置 → 本机 MCP 服务”中换一个端口');
      expect(document.body.textContent).not.toContain('already in use');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe.skipIf(process.platform === 'win32')('"Add to …" into a file other users can read, in the window', () => {
  /** Cursor's file, mode 644, and the dialog that adds our entry to it. */
  async function openDialog(language: 'en' | 'zh-CN'): Promise<{ file: string; closed: () => boolean }> {
    const file = path.join(home, '.cursor', 'mcp.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ "mcpServers": {} }');
    fs.chmodSync(file, 0o644);
    harness = makeBridge({ localServer: { port: 0, token: TOKEN } });
    let closed = false;
    await renderWithBridge(harness, <AddToClientDialog client="cursor" toolSet="all" onClose={() => (closed = true)} />, language);
    return { file, closed: () => closed };
  }

  it('warns in the preview and makes the file 600 by default (zh-CN)', async () => {
    const { file, closed } = await openDialog('zh-CN');
    await screen.findByText('本机的其他用户可以读取这个文件（权限 644），而条目里的令牌可以调用你的工具。');
    expect((screen.getByRole('switch', { name: '改为只有我能读写（600）' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '添加' }));
    await waitFor(() => expect(closed()).toBe(true));
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  });

  it('keeps the mode when the user unticks it (en)', async () => {
    const { file, closed } = await openDialog('en');
    fireEvent.click(await screen.findByRole('switch', { name: 'Make the file readable only by me (600)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(closed()).toBe(true));
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('644');
  });
});

describe("the window's local server panel when the command line set it (issue 33: 正在监听 at 19411 beside a switch off and 18790)", () => {
  it('says what runs and why it differs from the saved setting', async () => {
    harness = makeBridge({ localServer: { enabled: false, port: 18790, token: TOKEN } }, undefined, {
      localServer: { enabled: true, port: 0 },
    });
    harness.bridge.start();
    await renderWithBridge(harness, <LocalServerSection />, 'zh-CN');
    const note = await screen.findByText(
      /^这次启动时用了 --mcp-port：无论下面保存的设置是什么，现在都在 http:\/\/127\.0\.0\.1:\d+\/mcp 监听。/,
    );
    expect(note.textContent).not.toContain(':18790/');
    expect(document.body.textContent).not.toContain('--mcp-token-file');
  });
});
