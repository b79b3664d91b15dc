import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CallAbort } from '../../../../src/main/core/io/call-signal';
import type { Logger } from '../../../../src/main/core/logs/log-book';
import { CallRelay, FIRST_RELAY_ID } from '../../../../src/main/core/servers/call-relay';

// The relay's own logic (ids, timeouts, cancellation, progress, close) in memory, against a transport
// the test plays the server on, with fake timers. The same cases against a real child and a real
// endpoint socket: test/main/core/call-relay.test.ts.

type Sent = { id?: number; method?: string; params?: Record<string, unknown> };

/** A transport whose sends are recorded, with the SDK client's handlers as the relay finds them. */
function wire() {
  const sent: Sent[] = [];
  const sdk: { messages: JSONRPCMessage[]; closed: number } = { messages: [], closed: 0 };
  const transport: Transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message) => void sent.push(message as Sent),
    onmessage: (message) => void sdk.messages.push(message),
    onclose: () => void sdk.closed++,
  };
  const lines: string[] = [];
  const add = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  const log: Logger = { debug: add('debug'), info: add('info'), warn: add('warn'), error: add('error') };
  const relay = new CallRelay(transport, log);
  /** The server says something. */
  const server = (message: Record<string, unknown>) => transport.onmessage?.({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  const calls = () => sent.filter((m) => m.method === 'tools/call');
  const cancels = () => sent.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params?.requestId);
  return { relay, transport, sdk, lines, server, calls, cancels };
}

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
/** How a promise ended, without an unhandled rejection while it waits. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the tools/call relay, in memory', () => {
  it('gives each call an id of its own above the SDK client ids, and answers each with its own result in any order', async () => {
    const { relay, server, calls, sdk } = wire();
    const answers = ['a', 'b', 'c'].map((name) => relay.call('echo', { name }, { timeoutMs: 1000 }));
    const ids = calls().map((m) => m.id as number);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toBeGreaterThanOrEqual(FIRST_RELAY_ID);
    expect(calls().map((m) => m.params)).toEqual(['a', 'b', 'c'].map((name) => ({ name: 'echo', arguments: { name } })));
    // Answered backwards, one id echoed as a string (the SDK reads ids with Number() too).
    server({ id: ids[2], result: text('third') });
    server({ id: String(ids[1]), result: text('second') });
    server({ id: ids[0], result: text('first') });
    expect((await Promise.all(answers)).map((r) => r.content)).toEqual([
      text('first').content,
      text('second').content,
      text('third').content,
    ]);
    // The SDK client's own traffic (ids below the relay's, requests, notifications) goes on to it.
    server({ id: 3, result: { tools: [] } });
    server({ method: 'notifications/tools/list_changed' });
    expect(sdk.messages).toHaveLength(2);
    expect(relay.inFlight).toBe(0);
  });

  it('drops an answer nobody waits for (late, or made up) without passing it to the SDK client', () => {
    const { relay, server, sdk, lines } = wire();
    server({ id: FIRST_RELAY_ID + 41, result: text('stray') });
    expect(sdk.messages).toEqual([]);
    expect(lines).toEqual([`debug dropped a response to call ${FIRST_RELAY_ID + 41}, which no longer waits`]);
    expect(relay.inFlight).toBe(0);
  });

  it('times out calls of mixed limits each at its own limit, never before, tells the server, and drops the late answer', async () => {
    const { relay, server, calls, cancels, sdk } = wire();
    const long = outcome(relay.call('slow', {}, { timeoutMs: 400 }));
    const short = outcome(relay.call('slow', {}, { timeoutMs: 150 }));
    await vi.advanceTimersByTimeAsync(100);
    // Made later, with a shorter limit than one already waiting: its deadline comes between theirs.
    const later = outcome(relay.call('slow', {}, { timeoutMs: 100 }));
    const answered = relay.call('quick', {}, { timeoutMs: 150 });
    const [longId, shortId, laterId, answeredId] = calls().map((m) => m.id);
    server({ id: answeredId, result: text('done') });
    expect((await answered).content).toEqual(text('done').content);

    await vi.advanceTimersByTimeAsync(49);
    expect(cancels()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(cancels()).toEqual([shortId]);
    await vi.advanceTimersByTimeAsync(49);
    expect(cancels()).toEqual([shortId]);
    await vi.advanceTimersByTimeAsync(1);
    expect(cancels()).toEqual([shortId, laterId]);
    await vi.advanceTimersByTimeAsync(199);
    expect(relay.inFlight).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(cancels()).toEqual([shortId, laterId, longId]);

    for (const [result, limit] of [
      [await short, 150],
      [await later, 100],
      [await long, 400],
    ] as const) {
      expect(result).toEqual({ error: expect.any(McpError) });
      const error = (result as { error: McpError }).error;
      expect(error.code).toBe(ErrorCode.RequestTimeout);
      expect(error.data).toEqual({ timeout: limit });
    }
    // The server answers after all: nobody waits, and the SDK client never sees it.
    server({ id: shortId, result: text('too late') });
    expect(sdk.messages).toEqual([]);
    expect(relay.inFlight).toBe(0);
  });

  it('a call cancelled before its answer fails with the reason and tells the server; one cancelled after is answered', async () => {
    const { relay, server, calls, cancels } = wire();
    const early = new CallAbort();
    const first = outcome(relay.call('slow', {}, { timeoutMs: 1000, signal: early }));
    const late = new CallAbort();
    const second = relay.call('slow', {}, { timeoutMs: 1000, signal: late });
    const [firstId, secondId] = calls().map((m) => m.id);
    early.abort(new Error('the user stopped it'));
    expect(await first).toEqual({ error: new Error('the user stopped it') });
    expect(cancels()).toEqual([firstId]);
    server({ id: firstId, result: text('after the cancel') });
    server({ id: secondId, result: text('answered') });
    late.abort(new Error('too late to stop'));
    expect((await second).content).toEqual(text('answered').content);
    expect(cancels()).toEqual([firstId]);
    // Already cancelled: not sent at all.
    await expect(relay.call('slow', {}, { timeoutMs: 1000, signal: early })).rejects.toThrow('the user stopped it');
    expect(calls()).toHaveLength(2);
  });

  it("passes a call's progress on to its caller only, under the call's id as the token", async () => {
    const { relay, server, calls } = wire();
    const heard: unknown[] = [];
    const call = relay.call('slow', {}, { timeoutMs: 1000, onProgress: (p) => void heard.push(p) });
    const quiet = relay.call('slow', {}, { timeoutMs: 1000 });
    const [id, quietId] = calls().map((m) => m.id);
    expect(calls()[0]?.params?._meta).toEqual({ progressToken: id });
    expect(calls()[1]?.params?._meta).toBeUndefined();
    server({ method: 'notifications/progress', params: { progressToken: id, progress: 1, total: 3, message: 'one' } });
    server({ method: 'notifications/progress', params: { progressToken: String(id), progress: 2 } });
    server({ method: 'notifications/progress', params: { progressToken: quietId, progress: 9 } });
    expect(heard).toEqual([{ progress: 1, total: 3, message: 'one' }, { progress: 2 }]);
    server({ id, result: text('done') });
    server({ id: quietId, result: text('done') });
    await Promise.all([call, quiet]);
  });

  it('answers a malformed result as a readable error, and an error answer as the error it is', async () => {
    const { relay, server, calls } = wire();
    const bad = outcome(relay.call('x', {}, { timeoutMs: 1000 }));
    const refused = outcome(relay.call('x', {}, { timeoutMs: 1000 }));
    const [badId, refusedId] = calls().map((m) => m.id);
    server({ id: badId, result: { content: [{ type: 'chart', data: 1 }] } });
    server({ id: refusedId, error: { code: -32602, message: 'no such tool' } });
    expect(String(((await bad) as { error: unknown }).error)).toMatch(/malformed result: content\[0\] is not a text, image/);
    const error = ((await refused) as { error: McpError }).error;
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32602);
  });

  it('fails every call in flight as "Connection closed" when the server goes away, then the SDK client hears it; later calls fail at once', async () => {
    const { relay, transport, sdk, calls } = wire();
    const pending = [1, 2, 3].map(() => outcome(relay.call('slow', {}, { timeoutMs: 1000 })));
    transport.onclose?.();
    for (const result of await Promise.all(pending)) expect(String((result as { error: unknown }).error)).toContain('Connection closed');
    expect(sdk.closed).toBe(1);
    await expect(relay.call('slow', {}, { timeoutMs: 1000 })).rejects.toThrow('Connection closed');
    expect(calls()).toHaveLength(3);
    // No timer left behind to fire for the calls that were failed.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends through a transport that posts without a promise, and fails a call it could not post (or whose send rejected) with that error', async () => {
    const { relay, transport, calls } = wire();
    const posted: Sent[] = [];
    let refuse: Error | undefined;
    let slow = false;
    Object.assign(transport, {
      post: (message: JSONRPCMessage) => {
        if (slow) return Promise.reject(new Error('the slow way failed'));
        if (refuse) return refuse;
        posted.push(message as Sent);
        return undefined;
      },
    });
    const answered = relay.call('echo', {}, { timeoutMs: 1000 });
    expect(posted).toHaveLength(1);
    // Not through `send`: the promise-free path.
    expect(calls()).toHaveLength(0);
    transport.onmessage?.({ jsonrpc: '2.0', id: posted[0]?.id as number, result: text('ok') } as JSONRPCMessage);
    expect((await answered).content).toEqual(text('ok').content);
    refuse = new Error('Not connected');
    await expect(relay.call('echo', {}, { timeoutMs: 1000 })).rejects.toThrow('Not connected');
    refuse = undefined;
    slow = true;
    await expect(relay.call('echo', {}, { timeoutMs: 1000 })).rejects.toThrow('the slow way failed');
    expect(relay.inFlight).toBe(0);
  });

  it('a call whose message cannot be written (arguments nested too deep to stringify) fails at once and is not left in flight', async () => {
    const { relay, transport, cancels } = wire();
    // As StdioTransport.post writes it: JSON.stringify, which throws on arguments nested this deep.
    Object.assign(transport, { post: (message: JSONRPCMessage) => void JSON.stringify(message) });
    let deep: unknown = 1;
    for (let i = 0; i < 50_000; i++) deep = { a: deep };
    const signal = new CallAbort();
    await expect(relay.call('echo', { deep }, { timeoutMs: 1000, signal })).rejects.toThrow(RangeError);
    expect(relay.inFlight).toBe(0);
    signal.abort('too late');
    await vi.advanceTimersByTimeAsync(1000);
    expect(cancels()).toEqual([]);
  });
});
