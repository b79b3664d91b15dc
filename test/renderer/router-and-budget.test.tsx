// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { BudgetSettings } from '../../src/renderer/components/budget-settings';
import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { draftFromServer, serverFromDraft } from '../../src/renderer/pages/server-form';
import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { bigBridge } from '../helpers/big-bridge';
import { defaultSetTools, withEndpointTeardown } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

const ctx = withEndpointTeardown(afterEach);
afterEach(cleanup);

describe('the endpoint budget and router mode', () => {
  it('searches by itself past the budget, said in one sentence; every tool on request is warned of; pins tools', async () => {
    const h = await bigBridge(ctx);
    await renderWithBridge(h, <EndpointsPage />);
    // The default: no warning, one plain sentence, the numbers behind "Details".
    expect(await screen.findByText('You have many tools, so xiaozhi searches for the right one first, then calls it.')).toBeTruthy();
    expect(screen.queryByText('Over budget')).toBeNull();
    expect(screen.queryByText(/More than xiaozhi handles well/)).toBeNull();
    expect(screen.getByText('Details')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Automatic' }).getAttribute('aria-checked')).toBe('true');
    expect(h.store.load().endpoints[0]?.toolMode).toBeUndefined();

    // Every tool, whatever it costs: that is warned of, with the way back.
    fireEvent.click(screen.getByRole('radio', { name: 'Every tool' }));
    expect(await screen.findByText(/^xiaozhi gets your \d+ tools directly · [\d.]+\sKB in \d+ pages?/)).toBeTruthy();
    expect(screen.getByText('Over budget')).toBeTruthy();
    expect(screen.getByText(/More than xiaozhi handles well \(25 tools or 8\.0\sKB\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Choose automatically' }));
    await waitFor(() => expect(h.store.load().endpoints[0]?.toolMode).toBe('auto'));
    await waitFor(() => expect(screen.queryByText('Over budget')).toBeNull());

    fireEvent.click(screen.getByRole('radio', { name: 'Search first' }));
    expect(await screen.findByText('Xiaozhi searches your tools first, then calls the one it needs.')).toBeTruthy();
    // The user's 71 tools (the bridge's own two not counted as theirs, as the overview counts).
    expect(screen.getByText('xiaozhi sees find_tools and call_tool: it searches your 71 tools and calls the one it needs.')).toBeTruthy();
    // find_tools and call_tool, and the bridge's own task_status and cancel_task beside them.
    expect(await screen.findByText('xiaozhi gets 4 helper tools (search, confirm…) to find your 71 tools')).toBeTruthy();
    expect(h.store.load().endpoints[0]?.toolMode).toBe('router');

    fireEvent.change(screen.getByLabelText('Pinned tools'), { target: { value: 'get_current_weather' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pin' }));
    await waitFor(() => expect(h.store.load().endpoints[0]?.pinned).toEqual(['get_current_weather']));
    expect(await screen.findByText('xiaozhi gets 5 helper tools (search, confirm…) to find your 71 tools')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Pinned tools'), { target: { value: 'no_such_tool' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pin' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Unpin get_current_weather' }));
    await waitFor(() => expect(h.store.load().endpoints[0]?.pinned).toEqual([]));
  });

  /** Issue 33: the Tools page did not say that xiaozhi was served in search mode. */
  for (const [language, said] of [
    ['zh-CN', '工具较多，小智会先搜索再调用。一次把全部工具都给它，会超出它一次能接收的大小。'],
    [
      'en',
      'You have many tools, so xiaozhi searches for the right one first, then calls it. All of them at once would be more than it can take in.',
    ],
  ] as const)
    it(`the Tools page says at its top, in one plain sentence, that xiaozhi searches first, and why (${language})`, async () => {
      const h = await bigBridge(ctx);
      const { container } = await renderWithBridge(h, <ToolsPage />, language);
      const line = await screen.findByText(said);
      expect(container.querySelector('.page-header')!.nextElementSibling).toBe(line);
    });

  it('says the same in Chinese, without jargon', async () => {
    const h = await bigBridge(ctx);
    await renderWithBridge(h, <EndpointsPage />, 'zh-CN');
    expect(await screen.findByText('工具较多，小智会先搜索再调用。')).toBeTruthy();
    expect(screen.queryByText('超出预算')).toBeNull();
  });

  it('shows what the model sees, and lets the user try the search', async () => {
    const h = await bigBridge(ctx);
    await h.bridge.api.setEndpointTools({ id: 'e1', toolMode: 'router' });
    await renderWithBridge(h, <EndpointsPage />, 'zh-CN');
    fireEvent.click(await screen.findByRole('button', { name: '小智看到的内容' }));
    const dialog = await screen.findByRole('dialog', { name: '家里 看到的内容' });
    expect(await within(dialog).findByText('find_tools')).toBeTruthy();
    expect(within(dialog).getByText('call_tool')).toBeTruthy();
    expect(within(dialog).getByText(/^第 1\/1 页/)).toBeTruthy();
    expect(within(dialog).getByText(/- github \(60 tools\)/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('试试搜索'), { target: { value: '明天北京天气怎么样' } });
    const hits = await within(dialog).findByRole('list', { name: '试试搜索' }, { timeout: scaled(3000) });
    expect(within(hits).getByText('get_daily_forecast')).toBeTruthy();
    // Words no tool says find nothing, and the box says so instead of listing unrelated tools.
    fireEvent.change(within(dialog).getByRole('searchbox', { name: '试试搜索' }), { target: { value: '帮我做个蛋糕' } });
    expect(await within(dialog).findByText('没有匹配的工具。', {}, { timeout: scaled(3000) })).toBeTruthy();
    expect(within(dialog).queryByRole('list', { name: '试试搜索' })).toBeNull();
  });

  it('a bigger budget in Settings removes the warning', async () => {
    const h = await bigBridge(ctx);
    await h.bridge.api.setEndpointTools({ id: 'e1', toolMode: 'all' });
    await h.bridge.api.updatePreferences({ limits: { ...(await h.bridge.api.getSettings()).limits, maxMessageBytes: 16384 } });
    await renderWithBridge(
      h,
      <>
        <BudgetSettings />
        <EndpointsPage />
      </>,
    );
    expect(await screen.findByText('Over budget')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Tools'), { target: { value: '0' } });
    expect(screen.getByText('Enter a whole number of at least 1.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Tools'), { target: { value: '100' } });
    fireEvent.change(screen.getByLabelText('Tool list size bytes'), { target: { value: '200000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByText('Over budget')).toBeNull());
    // The other limits are kept as they were.
    expect(h.store.load().limits).toMatchObject({
      maxMessageBytes: 16384,
      callTimeoutMs: 60000,
      startGraceMs: 20000,
      budgetTools: 100,
      budgetBytes: 200000,
    });
  });
});

describe('tool description overrides', () => {
  it('edits a description in the Tools page; the model and the search both use it; reset restores it', async () => {
    const h = await bigBridge(ctx);
    const { toasts } = await renderWithBridge(h, <ToolsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the description of get_sun_moon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Description of get_sun_moon' });
    expect(within(dialog).getByText('查询日出日落、月升月落时间和月相', { selector: '.description-original' })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Description xiaozhi sees'), {
      target: { value: '查询几点天亮、几点天黑（日出日落时间）' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toasts.at(-1)?.message).toBe('Description of get_sun_moon saved.'));
    expect(defaultSetTools(h.store.load()).weather?.get_sun_moon?.description).toBe('查询几点天亮、几点天黑（日出日落时间）');
    expect(await screen.findByText('edited')).toBeTruthy();
    const hits = await h.bridge.api.searchTools({ query: '明天几点天亮', limit: 1 });
    expect(hits[0]?.name).toBe('get_sun_moon');

    fireEvent.click(screen.getByRole('button', { name: 'Edit the description of get_sun_moon' }));
    fireEvent.click(await screen.findByRole('button', { name: "Use the server's description" }));
    await waitFor(() => expect(defaultSetTools(h.store.load()).weather?.get_sun_moon?.description).toBeUndefined());
    await waitFor(() => expect(screen.queryByText('edited')).toBeNull());
  });
});

describe('the server form', () => {
  it('keeps "check arguments" off only when switched off', () => {
    const base = { name: 's', transport: 'stdio' as const, command: 'node', args: [], env: {}, enabled: true };
    expect(draftFromServer(base).checkArguments).toBe(true);
    expect(serverFromDraft(draftFromServer(base))).not.toHaveProperty('checkArguments');
    const off = draftFromServer({ ...base, checkArguments: false });
    expect(off.checkArguments).toBe(false);
    expect(serverFromDraft(off)).toMatchObject({ checkArguments: false });
  });
});
