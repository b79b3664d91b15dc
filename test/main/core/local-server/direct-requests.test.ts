import http from 'node:http';

import { describe, expect, it } from 'vitest';

import { STREAM_AFTER_MS } from '../../../../src/main/core/local-server/direct-requests';
import { fixtureServer, logText } from '../../../helpers/bridge-harness';
import { localHubs } from '../../../helpers/local-hub';
import { waitFor } from '../../../helpers/wait';

const TOKEN = 'direct-test-token-0123456789abcdef';
const hub = localHubs(TOKEN, 'xt-direct-');

interface Answer {
  status: number;
  type: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** What a client on node:http sends with each request of the session an SDK client opened. */
const sessionHeaders = (session: string) => ({
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  Authorization: `Bearer ${TOKEN}`,
  'Mcp-Session-Id': session,
  'Mcp-Protocol-Version': '2025-06-18',
});

/** A request POSTed as a client on node:http sends it, to the session an SDK client opened. */
function post(url: string, session: string, message: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { ...sessionHeaders(session), ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body, headers: res.headers }));
      res.on('error', reject);
    });
    request.on('error', reject);
    request.end(JSON.stringify(message));
  });
}

/** The JSON-RPC messages of an event stream, in order. */
const events = (body: string) =>
  body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { id?: unknown; method?: string; result?: unknown });

async function openSession() {
  const { url, logBook } = await hub.start({ servers: [fixtureServer('weather', { FIXTURE_RELAY_TOOLS: '1' })] });
  const { transport } = await hub.connect(url);
  return { url, session: transport.sessionId as string, logBook };
}

describe('requests of an open session, answered below the SDK transport', () => {
  it('answers a call as plain JSON when its result is the first thing to send', async () => {
    const { url, session } = await openSession();
    const answer = await post(url, session, {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: '你好 hi' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'weather: 你好 hi' }] } });
    // Its length said, not chunked: the client reads it without decoding chunks.
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    expect(answer.headers['transfer-encoding']).toBeUndefined();
  });

  it('answers as an event stream once progress comes first: the progress, then the result', async () => {
    const { url, session } = await openSession();
    const answer = await post(url, session, {
      jsonrpc: '2.0',
      id: 'p1',
      method: 'tools/call',
      params: { name: 'progress', arguments: { steps: 2 }, _meta: { progressToken: 'tok' } },
    });
    expect(answer.type).toBe('text/event-stream');
    const sent = events(answer.body);
    expect(sent.map((m) => m.method ?? `result ${String(m.id)}`)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'result p1',
    ]);
    expect(sent[2]?.result).toEqual({ content: [{ type: 'text', text: 'progressed 2' }] });
  });

  it('sends the headers of a slow answer as an event stream before the answer, which follows on it', async () => {
    const { url, session } = await openSession();
    const answer = await post(url, session, {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: STREAM_AFTER_MS + 300 } },
    });
    expect(answer.type).toBe('text/event-stream');
    expect(events(answer.body)).toEqual([{ jsonrpc: '2.0', id: 9, result: expect.objectContaining({ content: expect.any(Array) }) }]);
  });

  it('leaves to the SDK transport what it refuses: an unsupported protocol version, a batch', async () => {
    const { url, session } = await openSession();
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const version = await post(url, session, call, { 'Mcp-Protocol-Version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(version.body).toContain('Unsupported protocol version: 1999-01-01');
    // A batch is the SDK's to answer (as an event stream), whatever it holds.
    const batch = await post(url, session, [call]);
    expect(batch.type).toBe('text/event-stream');
    expect(events(batch.body)[0]).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
  });

  it('cancels a call its client cancels (notifications/cancelled) on its server, and answers nothing for it', async () => {
    const { url, session, logBook } = await openSession();
    let answered = '';
    const held = http.request(url, { method: 'POST', headers: sessionHeaders(session) }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (answered += chunk));
    });
    held.on('error', () => undefined);
    held.end(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'slow', arguments: { ms: 60_000 } } }));
    try {
      await waitFor(() => logText(logBook).includes('slow call started'), 10_000, 'the call to start');
      const told = await post(url, session, {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 4, reason: 'the user stopped it' },
      });
      expect(told.status).toBe(202);
      await waitFor(() => logText(logBook).includes('slow call cancelled'), 10_000, 'the child to hear the cancel');
      // The next call is answered: a cancelled one would have been answered (an error) before it.
      const next = await post(url, session, {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'on' } },
      });
      expect(JSON.parse(next.body)).toMatchObject({ id: 5, result: { content: [{ text: 'weather: on' }] } });
      expect(answered).toBe('');
    } finally {
      held.destroy();
    }
  });

  it('ends a request still open when its session ends, and the call is cancelled', async () => {
    const { url, session, logBook } = await openSession();
    // Its failure is held at once: it comes while the DELETE is on its way.
    const call = post(url, session, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 60_000 } },
    }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await waitFor(() => logText(logBook).includes('slow call started'), 10_000, 'the call to start');
    const ended = await fetch(url, { method: 'DELETE', headers: { Authorization: `Bearer ${TOKEN}`, 'Mcp-Session-Id': session } });
    expect(ended.status).toBe(200);
    // Before its headers went out, or after (a slow machine): the connection ends either way.
    expect(await call).toMatch(/socket hang up|aborted/);
    await waitFor(() => logText(logBook).includes('slow call cancelled'), 10_000, 'the child to hear the cancel');
  });
});
