import { afterEach, describe, expect, it } from 'vitest';

import { CALL_LIMITS } from '../../../src/main/core/endpoint/endpoint-calls';
import { fixtureServer, logText, type makeBridge, startServing, withEndpointTeardown } from '../../helpers/bridge-harness';
import { scaled } from '../../helpers/time-scale';
import { waitFor } from '../../helpers/wait';

const ctx = withEndpointTeardown(afterEach);

async function setup(input: Parameters<typeof makeBridge>[0] = {}) {
  const { xiaozhi, harness, session } = await startServing({ servers: [fixtureServer('fx')], ...input });
  Object.assign(ctx, { xiaozhi, harness });
  return session;
}

const echo = async (session: Awaited<ReturnType<typeof setup>>, id: number, text: string) =>
  (await session.request(id, 'tools/call', { name: 'echo', arguments: { text } })).result?.content?.[0]?.text;

describe('endpoint link: hostile frames', () => {
  it('answers ids that are numbers but not safe integers with a JSON-RPC error', async () => {
    const session = await setup();
    session.sendRaw('{"jsonrpc":"2.0","id":1.5,"method":"ping","params":{}}');
    session.sendRaw('{"jsonrpc":"2.0","id":1e308,"method":"tools/list","params":{}}');
    const fractional = await session.response(1.5);
    expect(fractional.error?.code).toBe(-32600);
    expect(fractional.error?.message).toMatch(/id/);
    const huge = await session.response(1e308);
    expect(huge.error?.code).toBe(-32600);
    expect(await echo(session, 3, 'after')).toBe('fx: after');
  });

  it('answers an absurdly long id with an error that does not echo it, and keeps serving', async () => {
    const session = await setup();
    const id = 'x'.repeat(200_000);
    session.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    await waitFor(() => session.received.some((m) => m.id === null && m.error), 5000, 'the error for the long id');
    const error = session.received.find((m) => m.id === null && m.error);
    expect(error?.error?.code).toBe(-32600);
    expect(session.rawFrames.every((f) => f.length < 10_000)).toBe(true);
    expect(await echo(session, 4, 'still')).toBe('fx: still');
  });

  it('drops unsolicited responses, logging a line of bounded size, and keeps serving', async () => {
    const session = await setup();
    const blob = 'y'.repeat(1_000_000);
    for (let i = 0; i < 5; i++) session.send({ jsonrpc: '2.0', id: 900 + i, result: { blob } });
    session.send({ jsonrpc: '2.0', id: 'z'.repeat(1_000_000), result: {} });
    expect(await echo(session, 5, 'ok')).toBe('fx: ok');
    await waitFor(() => logText(ctx.harness!.logBook).includes('unsolicited'), 5000, 'the drop to be logged');
    for (const entry of ctx.harness!.logBook.entries()) expect(entry.message.length).toBeLessThan(5000);
  });

  it('refuses frames over the incoming size limit by closing that connection, then reconnects', async () => {
    const session = await setup({ limits: { maxIncomingBytes: 65_536 } });
    session.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'p'.repeat(100_000) } }));
    await waitFor(() => session.isClosed, 5000, 'the oversized frame to end the connection');
    const next = await ctx.xiaozhi!.connection(1);
    await next.initialize();
    expect(await echo(next, 6, 'back')).toBe('fx: back');
    expect(logText(ctx.harness!.logBook)).toMatch(/1009|too big|over the/i);
  });

  it('holds at most 64 calls in progress, lets 1,024 more wait their turn, and refuses the rest at once', async () => {
    const session = await setup();
    session.record = false;
    // 20,000 slow calls took the bridge from 85 to 253 MB and its server from 66 to 199 MB.
    const total = CALL_LIMITS.inProgress + CALL_LIMITS.waiting + 40;
    const answers = Array.from({ length: total }, (_, i) =>
      session.request(1000 + i, 'tools/call', { name: 'slow', arguments: { ms: scaled(3000) } }, 20_000),
    );
    // A failed expectation below must not leave 1,100 unanswered promises to reject after the test.
    for (const answer of answers) answer.catch(() => undefined);
    // "At once": the refusals all arrive before the first of the calls in progress ends.
    const refused = await Promise.race([
      Promise.all(answers.slice(total - 40)),
      Promise.race(answers.slice(0, CALL_LIMITS.inProgress)).then(() => 'a call in progress ended first'),
    ]);
    expect(refused).not.toBe('a call in progress ended first');
    for (const answer of refused as Awaited<(typeof answers)[number]>[]) {
      expect(answer.result?.isError).toBe(true);
      expect(answer.result?.content?.[0]?.text).toMatch(/Too many calls are running/);
    }
    const done = await Promise.all(answers.slice(0, CALL_LIMITS.inProgress));
    expect(done.every((a) => a.result?.content?.[0]?.text === 'done')).toBe(true);
    // The first of those waiting gets its turn as soon as a place is free.
    expect((await answers[CALL_LIMITS.inProgress])?.result?.content?.[0]?.text).toBe('done');
  });

  it('closes a connection that stops reading its answers instead of holding them in memory without end, then reconnects', async () => {
    // 60 extra tools: each tools/list answer is a full page of about 8 KB, for a 70-byte request.
    const session = await setup({ servers: [fixtureServer('fx', { FIXTURE_EXTRA_TOOLS: '60' })] });
    session.record = false;
    (session.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    // About 50 MB of answers to 400 KB of requests (well past what the loopback socket buffers).
    for (let i = 0; i < 6000; i++) session.sendRaw(`{"jsonrpc":"2.0","id":${10_000 + i},"method":"tools/list","params":{}}`);
    await waitFor(() => /stopped reading/.test(logText(ctx.harness!.logBook)), 20_000, 'the bridge to give up on the reader');
    (session.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await waitFor(() => session.isClosed, 10_000, 'the connection to be closed');
    const next = await ctx.xiaozhi!.connection(1);
    await next.initialize();
    expect(await echo(next, 6, 'back')).toBe('fx: back');
  }, 40_000);
});

describe('endpoint link: frames JSON-RPC does not allow', () => {
  it('answers requests with a null, boolean or object id, batches, and a bad progress token', async () => {
    const session = await setup();
    for (const frame of [
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":true,"method":"ping"}',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
      '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    ])
      session.sendRaw(frame);
    await waitFor(
      () => session.received.filter((m) => m.id === null && m.error?.code === -32600).length === 4,
      5000,
      'four Invalid Request errors',
    );
    const bad = await session.request(7, 'tools/call', { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: { a: 1 } } });
    expect(bad.error?.code).toBe(-32602);
    expect(await echo(session, 8, 'fine')).toBe('fx: fine');
  });
});
