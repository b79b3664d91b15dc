import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { PendingElicitation } from '../../../../src/shared/elicitations';
import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { waitFor } from '../../../helpers/wait';

const LONG_CALL_SERVER = path.resolve(__dirname, '../../../fixtures/long-call-server.mjs');
const ctx = withEndpointTeardown(afterEach);

/** xiaozhi calls a tool whose server asks the user a question during the call (elicitation/create). */
async function setup(patience?: number) {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    endpoints: [{ id: 'e1', name: 'home', url: ctx.xiaozhi.url(), ...(patience ? { patience } : {}) }],
    servers: [{ name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER] }],
  });
  const heard: PendingElicitation[][] = [];
  ctx.harness.bridge.api.on('elicitations', (list) => heard.push(list));
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  const session = await ctx.xiaozhi.connection(0);
  await session.initialize();
  return { session, api: ctx.harness.bridge.api, heard };
}

describe("a server's question during a call (MCP elicitation)", () => {
  it('is shown to the window with its fields; a wrong value is refused saying which; the answer goes back to the tool', async () => {
    const { session, api, heard } = await setup();
    const call = session.request(1, 'tools/call', { name: 'ask_user', arguments: {} });
    await waitFor(() => heard.at(-1)?.length === 1, 10_000, 'the question');
    const [question] = await api.getElicitations();
    expect(question).toMatchObject({
      server: 'lc',
      message: 'Overwrite report.docx?',
      fields: [
        { name: 'overwrite', title: 'Overwrite', type: 'boolean', required: true },
        { name: 'copies', title: 'Copies', description: 'How many copies to keep', type: 'integer', required: false },
      ],
    });
    // Self-hosted (30 s, answered at 24 s): declined 2 s before that, unanswered.
    expect(question!.expiresAt - question!.askedAt).toBe(22_000);
    await expect(
      api.answerElicitation({ key: question!.key, action: 'accept', content: { overwrite: true, copies: 1.5 } }),
    ).rejects.toThrow('"Copies" must be a whole number.');
    await expect(api.answerElicitation({ key: question!.key, action: 'accept', content: {} })).rejects.toThrow(
      '"Overwrite" needs a value.',
    );
    expect(await api.answerElicitation({ key: question!.key, action: 'accept', content: { overwrite: true, copies: 2 } })).toBe(true);
    expect((await call).result?.content?.[0]?.text).toBe('accept {"overwrite":true,"copies":2}');
    expect(heard.at(-1)).toEqual([]);
    expect(await api.answerElicitation({ key: question!.key, action: 'decline' })).toBe(false);
  }, 60_000);

  it('unanswered, it is answered "cancel" (nobody said no) before the caller stops waiting, so the tool still answers it', async () => {
    // The caller waits 4 s (answered at 3.2 s): the question waits 1.2 s.
    const { session, api, heard } = await setup(4);
    const call = session.request(1, 'tools/call', { name: 'ask_user', arguments: {} });
    await waitFor(() => heard.at(-1)?.length === 1, 10_000, 'the question');
    const question = heard.at(-1)![0]!;
    expect(question.expiresAt - question.askedAt).toBe(1200);
    expect((await call).result?.content?.[0]?.text).toBe('cancel');
    expect(await api.getElicitations()).toEqual([]);
  }, 60_000);

  it("a yes/no question during a call by voice is put to the caller: the person's PIN says yes, and the result comes as a task", async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      endpoints: [{ id: 'e1', name: 'speaker', url: ctx.xiaozhi.url() }],
      // A tool that asks first: confirm_action is served.
      servers: [
        { name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER] },
        fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' }),
      ],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
    const api = ctx.harness.bridge.api;
    const asked = await esp.say('confirm_user');
    expect(asked).toMatch(
      /^The tool asks: Delete the old backups\? If the person says yes, ask for their confirmation PIN and call confirm_action with what they say, within a minute\. Meanwhile it goes on as task [2-9][A-Z]\. Their PIN is shown in the Xiaozhi Tray window, under Settings\.$/,
    );
    const task = /task ([2-9][A-Z])\./.exec(asked)?.[1] as string;
    // The window shows it too, waiting as long as a held call.
    const [question] = await api.getElicitations();
    expect(question).toMatchObject({ server: 'lc', message: 'Delete the old backups?' });
    expect(question!.expiresAt - question!.askedAt).toBe(60_000);
    const { pin } = await api.revealConfirmationPin();
    expect(await esp.say('confirm_action', { pin: pin === '000000' ? '000001' : '000000' })).toBe(
      "工具调用错误: That is not the PIN. The tool's question is still waiting: ask the person for their PIN again.",
    );
    expect(await esp.say('confirm_action', { pin })).toBe(`Told the tool yes; it goes on as task ${task}.`);
    await waitFor(async () => (await api.getTasks()).some((t) => t.id === task && t.state === 'done'), 15_000, 'the task');
    expect(await esp.say('task_status', { task })).toBe(`Task ${task} (confirm user) is done: accept {"ok":true}`);
    expect(await api.getElicitations()).toEqual([]);
  }, 60_000);
});
