import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';

import { FIXTURE, fixtureServer, logText, startServing, withEndpointTeardown } from '../../helpers/bridge-harness';
import type { JsonMessage } from '../../helpers/fake-xiaozhi';
import { scaled } from '../../helpers/time-scale';
import { waitFor } from '../../helpers/wait';

// tools/call relayed below the SDK's Protocol (call-relay.ts on the server side, endpoint-calls.ts
// on the endpoint side): the cases of its own, against a real endpoint socket and a real child.

const ctx = withEndpointTeardown(afterEach);

async function setup() {
  const { xiaozhi, harness, session } = await startServing({ servers: [fixtureServer('fx', { FIXTURE_RELAY_TOOLS: '1' })] });
  Object.assign(ctx, { xiaozhi, harness });
  return session;
}

const textOf = (message: JsonMessage) => message.result?.content?.[0]?.text;
const serverStatus = async () => (await ctx.harness!.bridge.api.getState()).servers.find((s) => s.name === 'fx');

describe('the tools/call relay', () => {
  it('answers 1,000 concurrent calls, each with its own id and its own result', async () => {
    const session = await setup();
    const ids: (string | number)[] = Array.from({ length: 1000 }, (_, i) =>
      i % 3 === 0 ? `3f2a-uuid_n_${i}` : i % 3 === 1 ? i : i * 1_000_003,
    );
    ids[0] = 0;
    const answers = ids.map((id) => session.response(id, 30_000));
    ids.forEach((id, i) =>
      session.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `call ${i}` } } }),
    );
    const responses = await Promise.all(answers);
    responses.forEach((response, i) => {
      expect(response.id).toStrictEqual(ids[i]);
      expect(textOf(response)).toBe(`fx: call ${i}`);
    });
    // Exactly one answer per request.
    const answered = session.received.filter(
      (m) => m.result !== undefined && typeof textOf(m) === 'string' && textOf(m)?.startsWith('fx: call'),
    );
    expect(answered).toHaveLength(1000);
  });

  it('drops responses for ids nobody waits for, and the server keeps running', async () => {
    const session = await setup();
    const response = await session.request(1, 'tools/call', { name: 'stray', arguments: {} });
    expect(textOf(response)).toBe('answered');
    expect(textOf(await session.request(2, 'tools/call', { name: 'echo', arguments: { text: 'after' } }))).toBe('fx: after');
    const status = await serverStatus();
    expect(status).toMatchObject({ state: 'running', restarts: 0 });
    // Nothing of the stray answers reached the endpoint.
    expect(session.rawFrames.some((f) => f.includes('stray'))).toBe(false);
  });

  it('answers every call in flight readably when the server dies, then serves again once it is back', async () => {
    const session = await setup();
    const slow = Array.from({ length: 20 }, (_, i) =>
      session.request(100 + i, 'tools/call', { name: 'slow', arguments: { ms: 20_000 } }, 20_000),
    );
    await waitFor(
      () => (logText(ctx.harness!.logBook).match(/slow call started/g) ?? []).length >= 20,
      10_000,
      'the calls to reach the server',
    );
    await session.request(99, 'tools/call', { name: 'crash', arguments: {} });
    for (const response of await Promise.all(slow)) {
      expect(response.result?.isError).toBe(true);
      expect(textOf(response)).toMatch(/^The tool "slow" failed\. .*Connection closed/);
    }
    await waitFor(async () => (await serverStatus())?.state === 'running' && (await serverStatus())!.restarts > 0, 10_000, 'the restart');
    expect(textOf(await session.request(200, 'tools/call', { name: 'echo', arguments: { text: 'back' } }))).toBe('fx: back');
  });

  it('never answers a call cancelled before its response, and always answers one cancelled too late', async () => {
    const session = await setup();
    // The cancel follows the call at once, so it crosses the server's (immediate) response.
    for (let i = 0; i < 40; i++) {
      session.send({ jsonrpc: '2.0', id: 1000 + i, method: 'tools/call', params: { name: 'echo', arguments: { text: `race ${i}` } } });
      session.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1000 + i, reason: 'crossed' } });
    }
    // A slow call sent after them: once it is answered, every earlier answer has arrived.
    await session.request(2000, 'tools/call', { name: 'slow', arguments: { ms: 300 } });
    await waitFor(
      async () => (await ctx.harness!.bridge.api.getHistory()).filter((r) => r.tool === 'echo').length === 40,
      5000,
      'every race in the history',
    );
    const history = await ctx.harness!.bridge.api.getHistory();
    for (let i = 0; i < 40; i++) {
      const answers = session.received.filter((m) => m.id === 1000 + i);
      const record = history.find((r) => r.tool === 'echo' && r.arguments.includes(`"race ${i}"`));
      expect(answers.length).toBeLessThanOrEqual(1);
      // Answered exactly when the call finished before the cancel arrived.
      expect(record?.outcome).toBe(answers.length === 1 ? 'ok' : 'cancelled');
    }
    expect(textOf(await session.request(3000, 'tools/call', { name: 'echo', arguments: { text: 'still fine' } }))).toBe('fx: still fine');
  });

  it('answers a result the SDK would refuse (bad content items, isError not a boolean) as a readable error, as the SDK path did', async () => {
    const session = await setup();
    const malformed: [unknown, RegExp][] = [
      [{ content: [{ type: 'text', text: 5 }] }, /content\[0\] is not a text, image, audio, resource_link or resource item/],
      [{ content: [{ text: 'no type' }] }, /content\[0\] is not a text/],
      [{ content: [{ type: 'text', text: 'fine' }, null] }, /content\[1\] is not a text/],
      [{ content: [{ type: 'resource' }] }, /content\[0\] is not a text/],
      [{ content: [{ type: 'text', text: 'yes?' }], isError: 'yes' }, /isError/],
    ];
    let id = 10;
    for (const [result, why] of malformed) {
      const response = await session.request(id++, 'tools/call', { name: 'answer_raw', arguments: { result } });
      expect(response.result?.isError).toBe(true);
      expect(textOf(response)).toMatch(/^The tool "answer_raw" failed\. The server answered the call with a malformed result: /);
      expect(textOf(response)).toMatch(why);
    }
    const history = (await ctx.harness!.bridge.api.getHistory()).filter((r) => r.tool === 'answer_raw');
    expect(history.map((r) => r.outcome)).toEqual(malformed.map(() => 'error'));
    // What the SDK accepts still goes through: every kind of item, extra keys, no content at all.
    const fine = {
      content: [
        { type: 'text', text: 'a', annotations: { priority: 1 } },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
      ],
      extra: 1,
    };
    expect(textOf(await session.request(id++, 'tools/call', { name: 'answer_raw', arguments: { result: fine } }))).toBe(
      'a\n[image: image/png, 3 bytes]\n[link: x file:///x]',
    );
    expect(
      (await session.request(id++, 'tools/call', { name: 'answer_raw', arguments: { result: { structuredContent: { n: 1 } } } })).result
        ?.content,
    ).toEqual([{ type: 'text', text: '{"n":1}' }]);
  });

  it('takes an answer whose id (and progress token) the server echoes as a string, as the SDK does', async () => {
    const session = await setup();
    const mark = session.mark();
    const response = await session.request(
      11,
      'tools/call',
      {
        name: 'answer_raw',
        arguments: { stringId: true, result: { content: [{ type: 'text', text: 'string id' }] } },
        _meta: { progressToken: 'tok-s' },
      },
      5000,
    );
    expect(textOf(response)).toBe('string id');
    expect(
      session.received
        .slice(mark)
        .filter((m) => m.method === 'notifications/progress')
        .map((m) => m.params),
    ).toEqual([{ progressToken: 'tok-s', progress: 1, total: 1 }]);
  });

  it('passes the server progress on to the endpoint under the endpoint own token', async () => {
    const session = await setup();
    const mark = session.mark();
    const response = await session.request(7, 'tools/call', {
      name: 'progress',
      arguments: { steps: 3 },
      _meta: { progressToken: 'tok-1' },
    });
    expect(textOf(response)).toBe('progressed 3');
    const progress = session.received.slice(mark).filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => m.params)).toEqual(
      [1, 2, 3].map((i) => ({ progressToken: 'tok-1', progress: i, total: 3, message: `step ${i}` })),
    );
    // A long message is cut, so the frame stays within the endpoint's limit.
    const longMark = session.mark();
    await session.request(9, 'tools/call', {
      name: 'progress',
      arguments: { steps: 1, message: '进'.repeat(5000) },
      _meta: { progressToken: 2 },
    });
    const long = session.received.slice(longMark).find((m) => m.method === 'notifications/progress');
    expect(long?.params).toMatchObject({ progressToken: 2, progress: 1, message: `${'进'.repeat(200)}…` });
    // Without a token, the server is asked all the same (the window shows its progress), and the endpoint is sent none.
    const quietMark = session.mark();
    expect(textOf(await session.request(8, 'tools/call', { name: 'progress', arguments: { steps: 3 } }))).toBe('progressed 3');
    expect(session.received.slice(quietMark).filter((m) => m.method === 'notifications/progress')).toEqual([]);
  });

  it('refuses a result that its tool output schema does not allow, as the SDK client did', async () => {
    const session = await setup();
    expect(textOf(await session.request(1, 'tools/call', { name: 'structured', arguments: { mode: 'ok' } }))).toBe('five');
    const missing = await session.request(2, 'tools/call', { name: 'structured', arguments: { mode: 'missing' } });
    expect(missing.result?.isError).toBe(true);
    expect(textOf(missing)).toBe('The tool "structured" failed. It has an output schema but returned no structured content.');
    const wrong = await session.request(3, 'tools/call', { name: 'structured', arguments: { mode: 'wrong' } });
    expect(textOf(wrong)).toMatch(
      /^The tool "structured" failed\. Its structured content does not match its output schema \("n" must be a number, not a string \("five"\)\)\.$/,
    );
    const history = await ctx.harness!.bridge.api.getHistory();
    expect(
      history
        .filter((r) => r.tool === 'structured')
        .map((r) => r.outcome)
        .sort(),
    ).toEqual(['error', 'error', 'ok']);
  });

  it('cancels the server call when the endpoint is switched off mid-call (a lost connection lets it go on as a task)', async () => {
    const session = await setup();
    session.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow', arguments: { ms: 20_000 } } });
    await waitFor(() => logText(ctx.harness!.logBook).includes('slow call started'), 5000, 'the call to reach the server');
    await ctx.harness!.bridge.api.updateEndpoint({ id: 'e1', enabled: false });
    await waitFor(() => logText(ctx.harness!.logBook).includes('slow call cancelled'), 5000, 'the server to see the cancel');
    await waitFor(
      async () => (await ctx.harness!.bridge.api.getHistory()).some((r) => r.tool === 'slow' && r.outcome === 'cancelled'),
      5000,
      'the cancelled call in the history',
    );
    expect(session.isClosed).toBe(true);
  });
});

/** A CallRelay straight over a fixture server's stdio, no bridge between; `close` ends it. */
async function relayToFixture() {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { CallRelay } = await import('../../../src/main/core/servers/call-relay');
  const { LogBook } = await import('../../../src/main/core/logs/log-book');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), FIXTURE_NAME: 'fx' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'relay-test', version: '1' }, { capabilities: {} });
  await client.connect(transport);
  return { relay: new CallRelay(transport, new LogBook().logger('test')), close: () => client.close() };
}

describe('the relay timeouts', () => {
  it('times out a call with a shorter limit than one already waiting, at its own limit', async () => {
    const { ErrorCode, McpError } = await import('@modelcontextprotocol/sdk/types.js');
    const { relay, close } = await relayToFixture();
    try {
      const long = relay.call('slow', { ms: 20_000 }, { timeoutMs: 30_000 });
      long.catch(() => undefined);
      const short = relay.call('slow', { ms: 20_000 }, { timeoutMs: 200 });
      const error = await short.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as InstanceType<typeof McpError>).code).toBe(ErrorCode.RequestTimeout);
      expect((error as InstanceType<typeof McpError>).data).toEqual({ timeout: 200 });
      // The long one still waits: only the call past its own limit was failed.
      expect(relay.inFlight).toBe(1);
      // And the relay still answers a quick call after a timeout.
      expect((await relay.call('echo', { text: 'after' }, { timeoutMs: scaled(5000) })).content).toEqual([
        { type: 'text', text: 'fx: after' },
      ]);
      relay.closeAll();
      await expect(long).rejects.toThrow('Connection closed');
    } finally {
      await close();
    }
  });

  it('times out calls of mixed limits, made at different times, each at its own limit and never before it; an answered one is not timed out', async () => {
    const { relay, close } = await relayToFixture();
    try {
      const timed = (limit: number) => {
        const started = performance.now();
        return relay.call('slow', { ms: 20_000 }, { timeoutMs: limit }).then(
          () => ({ limit, outcome: 'answered', after: performance.now() - started }),
          (error: { data?: { timeout?: number } }) => ({
            limit,
            outcome: `timeout ${error.data?.timeout}`,
            after: performance.now() - started,
          }),
        );
      };
      const first = [400, 150, 250, 150, 400].map(timed);
      // Made after the first ones have waited a while, with a shorter limit than some of them.
      await relay.call('slow', { ms: 50 }, { timeoutMs: scaled(5000) });
      const later = [100, 250].map(timed);
      // Longer than the limits around it, as slow as the machine: answered, it must not be timed out.
      const quick = relay.call('slow', { ms: 50 }, { timeoutMs: scaled(2000) });
      expect((await quick).content).toEqual([{ type: 'text', text: 'done' }]);
      for (const result of await Promise.all([...first, ...later])) {
        expect(result.outcome).toBe(`timeout ${result.limit}`);
        expect(result.after).toBeGreaterThanOrEqual(result.limit - 1);
      }
      expect(relay.inFlight).toBe(0);
    } finally {
      await close();
    }
  });
});
