// @vitest-environment jsdom
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { BackgroundTasks } from '../../src/renderer/components/background-tasks';
import { type Harness, makeBridge, patientConnection, tearDown } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

const LONG_CALL_SERVER = path.resolve(__dirname, '../fixtures/long-call-server.mjs');
const log = path.join(os.tmpdir(), `xt-tasks-window-${process.pid}.log`);
let harness: Harness | undefined;
let xiaozhi: FakeXiaozhi | undefined;
afterEach(async () => {
  cleanup();
  await tearDown(harness, xiaozhi);
  fs.rmSync(log, { force: true });
  harness = undefined;
  xiaozhi = undefined;
});

describe("the window's list of long calls", () => {
  it("shows a call's progress while it runs, and Cancel stops it; its caller, still waiting, is answered", async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({
      connection: patientConnection,
      endpoints: [{ id: 'e1', name: 'home', url: xiaozhi.url() }],
      servers: [{ name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER], env: { LONG_CALL_LOG: log } }],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    await renderWithBridge(harness, <BackgroundTasks />, 'zh-CN');
    expect(screen.queryByText('在后台运行的调用')).toBeNull();

    const answer = session.request(5, 'tools/call', { name: 'slow_report', arguments: { ms: 60_000, steps: 600 } }, 30_000);
    await screen.findByText(/section \d+ of 600/, undefined, { timeout: scaled(15_000) });
    expect(screen.getByText('在后台运行的调用')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(fs.existsSync(log) && fs.readFileSync(log, 'utf8')).toContain('slow_report cancelled'), {
      timeout: scaled(15_000),
    });
    // Cancelled here, not by the endpoint: the endpoint still gets its answer.
    const response = await answer;
    expect(response.result?.content?.[0]?.text).toBe('The call to "slow_report" was cancelled.');
  }, 60_000);
});
