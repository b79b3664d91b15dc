import { describe, expect, it } from 'vitest';

import { LongCall } from '../../../../src/main/core/endpoint/long-call';
import { CallAbort } from '../../../../src/main/core/io/call-signal';
import { BACKGROUND_LIMITS, BackgroundCalls, normaliseId } from '../../../../src/main/core/long-calls/background-calls';
import { answerAfterMs, patienceSeconds } from '../../../../src/main/core/long-calls/patience';
import { taskTools } from '../../../../src/main/core/long-calls/task-tools';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("the caller's patience", () => {
  it('is read from the URL unless set, and answered a margin before it ends', () => {
    expect(patienceSeconds({ url: 'wss://api.xiaozhi.me/mcp/?token=x' })).toBe(300);
    expect(patienceSeconds({ url: 'ws://192.168.1.5:8004/mcp_endpoint/mcp/?token=x' })).toBe(30);
    expect(patienceSeconds({ url: 'wss://api.xiaozhi.me/mcp/', patience: 'self-hosted' })).toBe(30);
    expect(answerAfterMs({ url: 'wss://api.xiaozhi.me/mcp/' })).toBe(285_000);
    expect(answerAfterMs({ url: 'ws://10.0.0.2/mcp/' })).toBe(24_000);
    expect(answerAfterMs({ url: 'ws://10.0.0.2/mcp/', patience: 10 })).toBe(8_000);
  });
});

describe('background calls', () => {
  it('keeps finished tasks bounded in count, result size and age', () => {
    const time = clock();
    const calls = new BackgroundCalls({ now: time.now });
    const ids: string[] = [];
    for (let i = 0; i < BACKGROUND_LIMITS.finished + 5; i++) {
      const call = calls.watch(`tool_${i}`, 'home', () => undefined);
      ids.push(call.answerLater()!);
      time.advance(10);
      call.finish('done', 'x'.repeat(BACKGROUND_LIMITS.resultChars + 100));
    }
    const listed = calls.list();
    expect(listed).toHaveLength(BACKGROUND_LIMITS.finished);
    // The oldest left first.
    expect(calls.find(ids[0]!)).toBeUndefined();
    expect(calls.find(ids.at(-1)!)?.result).toHaveLength(BACKGROUND_LIMITS.resultChars + 1);
    expect(new Set(listed.map((t) => t.id)).size).toBe(listed.length);
    time.advance(BACKGROUND_LIMITS.maxAgeMs + 1);
    expect(calls.list()).toEqual([]);
  });

  it('does not give an id again soon after its task left the list ("task 3F" then finds no other call)', () => {
    // Before: a random free id, so a task evicted a moment ago could lend its id to the next (CI hit it: 1 in 30).
    const time = clock();
    const calls = new BackgroundCalls({ now: time.now });
    const given: string[] = [];
    for (let i = 0; i < 300; i++) {
      const call = calls.watch(`tool_${i}`, 'home', () => undefined);
      const id = call.answerLater()!;
      expect(given.slice(-40)).not.toContain(id);
      given.push(id);
      time.advance(10);
      call.finish('done', 'ok');
    }
  });

  it('has at most so many running in the background; the next is awaited (no id)', () => {
    const calls = new BackgroundCalls();
    for (let i = 0; i < BACKGROUND_LIMITS.running; i++) expect(calls.watch('t', 'home', () => undefined).answerLater()).toBeDefined();
    expect(calls.watch('t', 'home', () => undefined).answerLater()).toBeUndefined();
  });

  it('shows each caller only its own tasks, and the window every one, redacted', () => {
    const calls = new BackgroundCalls({ redact: (text) => text.replace('sk-secret', '***') });
    const mine = calls.watch('search', 'home', () => undefined);
    const id = mine.answerLater()!;
    mine.finish('done', 'key sk-secret found');
    const tools = taskTools(
      calls,
      () => 'en',
      () => true,
    );
    const status = tools.find((t) => t.tool.name === 'task_status')!;
    expect(status.run({ task: id }, { caller: 'office' }).content).toEqual([
      { type: 'text', text: `There is no task ${id}. No task is running, and none finished in the last half hour.` },
    ]);
    expect(status.run({ task: id }, { caller: 'home' }).content).toEqual([
      { type: 'text', text: `Task ${id} (search) is done: key sk-secret found` },
    ]);
    expect(calls.shownList()[0]?.result).toBe('key *** found');
  });

  it("lists nothing for progress that comes after the call's end (a server's late notification)", () => {
    const calls = new BackgroundCalls();
    // Watched for its progress, then ended: out of the list, and a late progress must not bring it back as running.
    const watched = calls.watch('slow_tool', 'home', () => undefined);
    watched.progress({ progress: 1 });
    expect(calls.list()).toHaveLength(1);
    watched.finish('done', '');
    watched.progress({ progress: 2 });
    expect(calls.list()).toEqual([]);
    // An endpoint's call never watched (it ended quickly), then a progress after its result: no entry is made.
    const long = new LongCall({ id: 7, params: { name: 'quick_tool' } }, new CallAbort(), calls, 'home', 'home', 0);
    long.finish('done', { content: [{ type: 'text', text: 'ok' }] });
    long.progress({ progress: 1 });
    expect(calls.list()).toEqual([]);
  });

  it('reads an id as a person says it', () => {
    expect(normaliseId('task 3f')).toBe('3F');
    expect(normaliseId('3 F.')).toBe('3F');
    expect(normaliseId('任务3F')).toBe('3F');
  });
});

// Issue 30: the bounds were for every endpoint together, so one endpoint whose model started call after
// call pushed another endpoint's finished result out before its model asked for it, and took every place.
describe('background calls of two endpoints', () => {
  it("one that finishes task after task forgets its own oldest results, never another endpoint's", () => {
    const time = clock();
    const calls = new BackgroundCalls({ now: time.now });
    const quiet = calls.watch('report', 'kitchen', () => undefined, 'e1');
    const id = quiet.answerLater()!;
    quiet.finish('done', 'the report');
    for (let i = 0; i < 3 * BACKGROUND_LIMITS.finished; i++) {
      const call = calls.watch(`tool_${i}`, 'office', () => undefined, 'e2');
      call.answerLater();
      time.advance(10);
      call.finish('done', 'x');
    }
    expect(calls.find(id, 'e1')?.result).toBe('the report');
    expect(calls.list('e2')).toHaveLength(BACKGROUND_LIMITS.finished);
  });

  it('one that keeps calls running leaves places for another', () => {
    const calls = new BackgroundCalls();
    for (let i = 0; i < BACKGROUND_LIMITS.running; i++)
      expect(calls.watch('t', 'office', () => undefined, 'e2').answerLater()).toBeDefined();
    expect(calls.watch('t', 'office', () => undefined, 'e2').answerLater()).toBeUndefined();
    expect(calls.watch('t', 'kitchen', () => undefined, 'e1').answerLater()).toBeDefined();
  });
});

// Issue 31: task_status ignored arguments it does not take: a model that asked about `id` heard every task.
describe('the task tools', () => {
  it('say which arguments they do not take, in the voice language', () => {
    const calls = new BackgroundCalls();
    const [status, cancel] = taskTools(
      calls,
      () => 'zh-CN',
      () => true,
    );
    expect(status!.run({ id: '3F' }, { caller: 'home' })).toMatchObject({
      isError: true,
      content: [{ text: 'task_status 没有参数 "id"；它只接受 "task"。' }],
    });
    expect(cancel!.run({ task: '3F', force: true }, { caller: 'home' })).toMatchObject({
      isError: true,
      content: [{ text: 'cancel_task 没有参数 "force"；它只接受 "task"。' }],
    });
  });
});
