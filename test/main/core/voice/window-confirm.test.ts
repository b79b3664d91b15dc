import { afterEach, describe, expect, it } from 'vitest';

import type { BridgeOptions } from '../../../../src/main/core/bridge/bridge';
import type { PendingConfirmation } from '../../../../src/shared/confirmations';
import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

const ctx = withEndpointTeardown(afterEach);

/** A speaker (the ESP32 server's client) served a destructive tool, and what the window hears of held calls. */
async function speaker(options: Partial<BridgeOptions> = {}) {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge(
    { endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }], servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' })] },
    undefined,
    options,
  );
  const heard: PendingConfirmation[][] = [];
  ctx.harness.bridge.api.on('confirmations', (list) => heard.push(list));
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
  return { esp, api: ctx.harness.bridge.api, heard };
}

/** What the person says when the model asks for their PIN (as the window shows it to them). */
const pinOf = async (api: { revealConfirmationPin(): Promise<{ pin: string }> }) => (await api.revealConfirmationPin()).pin;

describe('a held call answered in the window (or the web UI)', () => {
  it('is listed with who asked and its arguments; Allow runs it as a background task the model reads with task_status', async () => {
    const { esp, api, heard } = await speaker();
    await esp.say('delete_file', { path: '/home/me/report.docx' });
    const pending = await api.getConfirmations();
    expect(pending).toEqual([
      expect.objectContaining({
        via: 'pin',
        tool: 'delete_file',
        server: 'files',
        title: 'Delete a file',
        caller: 'speaker',
        args: [{ name: 'path', value: '/home/me/report.docx' }],
      }),
    ]);
    // The window heard of it without asking; the PIN is not in what it lists.
    expect(heard.at(-1)).toEqual(pending);
    const pin = await pinOf(api);
    expect(JSON.stringify(pending)).not.toContain(pin);
    expect(pending[0]!.expiresAt - pending[0]!.askedAt).toBe(60_000);

    const answer = await api.answerConfirmation({ key: pending[0]!.key, allow: true });
    expect(answer).toEqual({ outcome: 'allowed', task: expect.stringMatching(/^[2-9][A-Z]$/) });
    expect(heard.at(-1)).toEqual([]);
    const task = answer.task as string;
    await waitFor(async () => (await api.getTasks()).some((t) => t.id === task && t.state === 'done'), 15_000, 'the task to finish');
    expect(await esp.say('task_status', { task })).toBe(`Task ${task} (delete file) is done: deleted /home/me/report.docx`);
    // The PIN said afterwards is told what became of it.
    expect(await esp.say('confirm_action', { pin })).toBe(
      `The user already allowed this in Xiaozhi Tray. Task ${task} (delete file) is done: deleted /home/me/report.docx`,
    );
    // History: who asked, what was confirmed, by what.
    // One row per call: the held row became the run (issue 33), its caller without an English suffix.
    const rows = (await api.getHistory()).filter((r) => r.tool === 'delete_file');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      caller: 'speaker',
      result: 'deleted /home/me/report.docx',
      confirmation: { state: 'allowed', in: 'webUi' },
      task,
      outcome: 'ok',
    });
    // A second answer finds nothing waiting.
    expect(await api.answerConfirmation({ key: pending[0]!.key, allow: false })).toEqual({ outcome: 'gone' });
  }, 60_000);

  it('Deny refuses it: the history says so, and a confirmation by voice afterwards hears that the user declined', async () => {
    const { esp, api } = await speaker();
    await esp.say('delete_file', { path: '/x' });
    const [pending] = await api.getConfirmations();
    expect(await api.answerConfirmation({ key: pending!.key, allow: false })).toEqual({ outcome: 'denied' });
    expect(await api.getConfirmations()).toEqual([]);
    expect(await esp.say('confirm_action', { pin: await pinOf(api) })).toBe('The user declined: Delete a file (path: /x).');
    const records = await api.getHistory();
    expect(records.filter((r) => r.tool === 'delete_file')).toEqual([
      expect.objectContaining({
        caller: 'speaker',
        outcome: 'cancelled',
        confirmation: { state: 'denied', in: 'webUi' },
        result: 'The user declined: Delete a file (path: /x).',
      }),
    ]);
    expect(records.some((r) => r.result.startsWith('deleted'))).toBe(false);
  }, 60_000);

  it('unanswered, it expires on time: the window hears it leave, the history records it, the PIN is told it expired', async () => {
    const { esp, api, heard } = await speaker({ confirmWindowMs: scaled(1500) });
    await esp.say('delete_file', { path: '/y' });
    expect(heard.at(-1)).toHaveLength(1);
    await waitFor(() => heard.at(-1)?.length === 0, 10_000, 'the held call to expire');
    expect((await api.getHistory()).filter((r) => r.tool === 'delete_file')).toEqual([
      expect.objectContaining({ caller: 'speaker', outcome: 'cancelled', confirmation: { state: 'expired' } }),
    ]);
    expect(await esp.say('confirm_action', { pin: await pinOf(api) })).toBe(
      '工具调用错误: That confirmation has expired. Ask for the action again.',
    );
  }, 60_000);
});
