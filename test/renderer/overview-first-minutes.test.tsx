// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { fixtureServer, type Harness, makeBridge, patientConnection, tearDown } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';
import { waitFor as waitForCondition } from '../helpers/wait';

let harness: Harness | undefined;
let xiaozhi: FakeXiaozhi | undefined;
afterEach(async () => {
  cleanup();
  await tearDown(harness, xiaozhi);
  harness = undefined;
  xiaozhi = undefined;
});

describe('the overview in the first minutes', () => {
  it('says whether xiaozhi read the tools, keeps the checklist until it has, and names a failed server with a link to its card', async () => {
    xiaozhi = await FakeXiaozhi.start();
    const crashing = { name: 'weather-py', transport: 'stdio' as const, command: process.execPath, args: ['-e', 'process.exit(1)'] };
    harness = makeBridge(
      {
        servers: [fixtureServer('fx'), crashing],
        endpoints: [{ id: 'e', name: '家里', url: xiaozhi.url() }],
        limits: { startGraceMs: 2000 },
        connection: patientConnection,
      },
      { restartBaseMs: 20, restartMaxMs: 20, maxCrashes: 1, crashWindowMs: 60_000, startTimeoutMs: 10_000, stopGraceMs: 500 },
    );
    harness.bridge.start();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    const session = await xiaozhi.connection(0);
    await session.initialize();
    // Connected, no tools read yet: the checklist is there (it used to vanish once an endpoint was added).
    expect(await screen.findByText('小智已连接 · 会在下次对话开始时读取工具')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '让小智用上你的工具' })).toBeTruthy();
    // The step left to do is talking to xiaozhi, which no button does: it has none (it offered the
    // catalogue, where a new user looked for how to make xiaozhi read the tools).
    const readStep = screen.getByText('小智已读取工具').closest('li') as HTMLElement;
    expect(within(readStep).getByText(/和小智开始一次新对话/)).toBeTruthy();
    expect(within(readStep).queryByRole('link')).toBeNull();

    const failed = await screen.findByRole('link', { name: 'weather-py' }, { timeout: scaled(10_000) });
    expect(failed.getAttribute('href')).toBe('#/servers?server=weather-py');

    await harness.bridge.whenServersSettled();
    // The checklist's count is the user's tools, as the headline's 已提供 (it said 共 22 beside 已提供 19: the app's own three counted).
    const serversStep = screen.getByText('至少运行一个带工具的服务').closest('li') as HTMLElement;
    const stepText = (await within(serversStep).findByText(/1\/2 个服务运行中，共 \d+ 个工具。/)).textContent ?? '';
    const { tools } = await session.listAllTools();
    expect(tools.length).toBeGreaterThan(0);
    const appOwn = new Set(['task_status', 'cancel_task', 'confirm_action']);
    expect(stepText).toBe(`1/2 个服务运行中，共 ${tools.filter((tool) => !appOwn.has(tool.name)).length} 个工具。`);
    // Read, but with weather-py failed beside it: the headline says so, not a green "已读取 N 个工具".
    await screen.findByText('小智已连接，但有 1 个服务失败：其中的工具现在用不了', undefined, { timeout: scaled(10_000) });
    await waitFor(() => expect(screen.queryByRole('heading', { name: '让小智用上你的工具' })).toBeNull());
  });

  it('with no server yet, does not count the app’s own task tools as the user’s, and links to the catalogue', async () => {
    xiaozhi = await FakeXiaozhi.start();
    // As a user does it: the endpoint added in the window to a bridge with nothing configured.
    harness = makeBridge({ servers: [], connection: patientConnection });
    harness.bridge.start();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    await harness.bridge.api.addEndpoint({ name: '家里', url: xiaozhi.url() });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    // What xiaozhi reads once the catalogue is built (it lists again, as xiaozhi does).
    let tools: unknown[] = [];
    await waitForCondition(async () => (tools = (await session.listAllTools()).tools).length > 0, 10_000, 'the bridge’s own tools');
    // The bridge's own tools (task_status, cancel_task): before, "小智已连接 · 已读取 2 个工具".
    expect(tools.length).toBeGreaterThan(0);
    expect(await screen.findByText('小智已连接 · 还没有服务为它提供工具', undefined, { timeout: scaled(10_000) })).toBeTruthy();
    expect(screen.queryByText(/已读取 \d+ 个工具/)).toBeNull();
    expect(screen.getByRole('link', { name: '还没有服务：添加一个服务，小智才有工具可用' }).getAttribute('href')).toBe(
      '#/servers?add=catalogue',
    );
    // The steps left to do stay, the catalogue offered once (by the step it serves).
    expect(screen.getByRole('heading', { name: '让小智用上你的工具' })).toBeTruthy();
    const checklist = screen.getByRole('heading', { name: '让小智用上你的工具' }).closest('section') as HTMLElement;
    expect(within(checklist).getAllByRole('link', { name: '打开服务目录' })).toHaveLength(1);
  });
});
