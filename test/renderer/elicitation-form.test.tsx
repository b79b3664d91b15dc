// @vitest-environment jsdom
import path from 'node:path';

import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { PendingElicitations } from '../../src/renderer/components/pending-elicitations';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

const LONG_CALL_SERVER = path.resolve(__dirname, '../fixtures/long-call-server.mjs');
let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

async function asking(language: 'en' | 'zh-CN') {
  harness = makeBridge({ servers: [{ name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER] }] });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  const rendered = await renderWithBridge(harness, <PendingElicitations />, language);
  // The window's "Try it" takes the same path as xiaozhi's call.
  const call = harness.bridge.api.callTool({ name: 'ask_user', arguments: {} });
  return { ...rendered, call };
}

describe("the window's form for a server's question", () => {
  it('shows the question and its fields; the answer sent reaches the tool, and the question goes', async () => {
    const { call, toasts } = await asking('en');
    expect(await screen.findByText('Overwrite report.docx?')).toBeTruthy();
    expect(screen.getByText('lc asks:')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Copies'), { target: { value: '3' } });
    fireEvent.click(screen.getByLabelText('Overwrite'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await call).text).toBe('accept {"overwrite":true,"copies":3}');
    expect(toasts).toEqual([]);
    await waitFor(() => expect(screen.queryByText('Overwrite report.docx?')).toBeNull());
  }, 60_000);

  it('in Chinese, 拒绝回答 declines', async () => {
    const { call } = await asking('zh-CN');
    expect(await screen.findByText('工具在问你')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '拒绝回答' }));
    expect((await call).text).toBe('decline');
  }, 60_000);
});
