import { describe, expect, it } from 'vitest';

import { confirmTool } from '../../../../src/main/core/hub/builtin/confirm-tool';
import type { HeldRunOptions } from '../../../../src/main/core/hub/builtin/confirmations';
import { Confirmations } from '../../../../src/main/core/hub/builtin/confirmations';
import { CallAbort } from '../../../../src/main/core/io/call-signal';
import { heldDelete, TEST_PIN } from '../../../helpers/held-calls';

// Before: a call confirmed by voice runs without the confirm call's signal, so when the confirm
// call goes on as a task (a long destructive tool), cancel_task (or the endpoint's cancel) marks the task
// cancelled while the server's call runs to its end.
describe('a call confirmed by voice', () => {
  it('runs with the confirm call’s signal, progress and task, so cancelling the confirm task stops it', async () => {
    const confirmations = new Confirmations(() => TEST_PIN);
    let seen: HeldRunOptions | undefined;
    confirmations.hold({
      session: 's1',
      via: 'pin',
      caller: 'speaker',
      owner: 'speaker',
      server: 'long',
      tool: 'slow_report',
      title: 'slow_report',
      action: 'slow_report (ms: 20000)',
      args: { ms: 20000 },
      run: async (_by, options) => {
        seen = options;
        return { result: { content: [{ type: 'text', text: 'done' }] } };
      },
      ended: () => {},
    });
    const tool = confirmTool({ confirmations, language: () => 'en', wanted: () => true });
    const signal = new CallAbort();
    const onProgress = () => {};
    const task: { id?: string } = {};
    await tool.run({ pin: TEST_PIN }, { caller: 'speaker', session: 's1', signal, onProgress, background: true, task });
    expect(seen?.signal).toBe(signal);
    expect(seen?.onProgress).toBe(onProgress);
    expect(seen?.background).toBe(task);
  });
});

// Before: a confirmation said a second time after it ran answered "not valid. Ask for the action again.",
// inviting the model to ask for the same destructive action once more; the window's answers are remembered.
describe('a PIN said again after it ran the action', () => {
  it('names the task it goes on as, with its state', async () => {
    const confirmations = new Confirmations(() => TEST_PIN);
    confirmations.hold(
      heldDelete({
        owner: 'e1',
        run: async (_by, options) => {
          if (options?.background) options.background.id = '3F';
          return { result: { content: [{ type: 'text', text: 'deleted /a' }] } };
        },
      }),
    );
    const tool = confirmTool({
      confirmations,
      language: () => 'en',
      wanted: () => true,
      taskText: (id, owner) => `Task ${id} of ${owner} is done.`,
    });
    await tool.run({ pin: TEST_PIN }, { caller: 'speaker', session: 's1', background: true, task: {} });
    const again = await tool.run({ pin: ` ${TEST_PIN}` }, { caller: 'speaker', session: 's1' });
    expect(again).toMatchObject({
      content: [{ text: 'Delete a file (path: /a) was already confirmed. Do not ask for it again. Task 3F of e1 is done.' }],
    });
    expect(again.isError).toBeUndefined();
  });
});

// Before: a held call ran after its tool was set to "never" within the minute.
describe('a held call whose tool is no longer allowed by voice', () => {
  it('ends at the recheck, and the PIN is told so', async () => {
    const confirmations = new Confirmations(() => TEST_PIN);
    let allowed = true;
    const ended: string[] = [];
    confirmations.hold(heldDelete({ ended: (how) => ended.push(how), stillAllowed: () => allowed }));
    confirmations.recheck();
    expect(confirmations.size).toBe(1);
    allowed = false;
    confirmations.recheck();
    expect(confirmations.size).toBe(0);
    expect(ended).toEqual(['withdrawn']);
    const tool = confirmTool({ confirmations, language: () => 'en', wanted: () => true });
    const answer = await tool.run({ pin: TEST_PIN }, { caller: 'speaker', session: 's1' });
    expect(answer).toMatchObject({
      isError: true,
      content: [{ text: 'The user no longer allows this by voice: Delete a file (path: /a).' }],
    });
  });
});
