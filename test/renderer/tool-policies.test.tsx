// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { fixtureServer, startServing, withEndpointTeardown } from '../helpers/bridge-harness';
import type { FakeSession } from '../helpers/fake-xiaozhi';
import { renderWithBridge } from '../helpers/render-app';

afterEach(cleanup);
const ctx = withEndpointTeardown(afterEach);

async function serving(): Promise<FakeSession> {
  const started = await startServing({ servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' })] });
  Object.assign(ctx, { harness: started.harness, xiaozhi: started.xiaozhi });
  return started.session;
}

const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const shownOption = (s: HTMLSelectElement) => s.selectedOptions[0]?.textContent;

describe('voice policies on the tools page', () => {
  it('shows each default (ask first for a destructive tool), saves a tool’s and a server’s choice, and xiaozhi is held to it', async () => {
    const session = await serving();
    await renderWithBridge(ctx.harness!, <ToolsPage />);
    expect(shownOption(select('When xiaozhi calls delete_file'))).toBe('Default: Ask first (PIN)');
    expect(shownOption(select('When xiaozhi calls echo'))).toBe('Default: Run');
    expect(shownOption(select('When xiaozhi calls any tool of files'))).toBe('Each tool as set');
    // The bridge's own tools have no policy to set.
    expect(screen.queryByLabelText('When xiaozhi calls task_status')).toBeNull();

    fireEvent.change(select('When xiaozhi calls delete_file'), { target: { value: 'never' } });
    await waitFor(() => expect(ctx.harness!.store.load().servers[0]?.toolPolicies).toEqual({ delete_file: 'never' }));
    const refused = await session.request(50, 'tools/call', { name: 'delete_file', arguments: { path: '/x' } });
    expect(refused.result?.content?.[0]?.text).toBe(
      'The tool "delete_file" may not be used by voice. The user can allow it in Xiaozhi Tray.',
    );

    fireEvent.change(select('When xiaozhi calls any tool of files'), { target: { value: 'ask' } });
    await waitFor(() => expect(ctx.harness!.store.load().servers[0]?.toolPolicy).toBe('ask'));
    await waitFor(() => expect(shownOption(select('When xiaozhi calls echo'))).toBe('Default: Ask first (PIN)'));
    const held = await session.request(51, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(held.result?.content?.[0]?.text).toMatch(/^This needs the person's OK first: echo \(text: hi\)\./);

    // Only in the window: voice is told to wait for Allow there.
    fireEvent.change(select('When xiaozhi calls delete_file'), { target: { value: 'window' } });
    await waitFor(() => expect(ctx.harness!.store.load().servers[0]?.toolPolicies).toEqual({ delete_file: 'window' }));
    const waits = await session.request(52, 'tools/call', { name: 'delete_file', arguments: { path: '/x' } });
    expect(waits.result?.content?.[0]?.text).toMatch(/^This must be allowed in the Xiaozhi Tray window or its web page: /);

    // Back to the defaults: nothing left in the settings.
    fireEvent.change(select('When xiaozhi calls delete_file'), { target: { value: '' } });
    fireEvent.change(select('When xiaozhi calls any tool of files'), { target: { value: '' } });
    await waitFor(() => {
      const files = ctx.harness!.store.load().servers[0];
      expect(files?.toolPolicies).toBeUndefined();
      expect(files?.toolPolicy).toBeUndefined();
    });
  }, 60_000);

  it('in Chinese', async () => {
    await serving();
    await renderWithBridge(ctx.harness!, <ToolsPage />, 'zh-CN');
    expect(shownOption(select('小智调用 delete_file 时'))).toBe('默认：先问我（口令）');
    expect([...select('小智调用 echo 时').options].map((o) => o.textContent)).toEqual([
      '默认：直接运行',
      '直接运行',
      '先问我（口令）',
      '只在窗口里允许',
      '禁止',
    ]);
    expect(screen.getAllByText('语音调用：').length).toBeGreaterThan(0);
  }, 60_000);

  it('the built-in tools are a group named in words, with what they are for (not "xiaozhi-tray")', async () => {
    // Shot 15 of the new user's walk: cancel_task, confirm_action and task_status under a heading "xiaozhi-tray".
    await serving();
    await renderWithBridge(ctx.harness!, <ToolsPage />, 'zh-CN');
    const group = await screen.findByRole('region', { name: '本应用自带' });
    expect(group.querySelector('h2')?.textContent).toBe('本应用自带');
    expect(group.textContent).toContain('小智用它们查看、取消还在进行的调用，以及确认要你同意的操作。');
    expect(screen.queryByRole('heading', { name: 'xiaozhi-tray' })).toBeNull();
  }, 60_000);
});
