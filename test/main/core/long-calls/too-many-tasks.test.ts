import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { EndpointCalls } from '../../../../src/main/core/endpoint/endpoint-calls';
import type { CallContext } from '../../../../src/main/core/hub/tool-set-view';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { BACKGROUND_LIMITS, BackgroundCalls } from '../../../../src/main/core/long-calls/background-calls';
import { waitFor } from '../../../helpers/wait';

// Before: with 32 tasks running in the background, a 33rd long call was awaited past the
// caller's patience, so xiaozhi said 工具调用请求超时 instead of anything the user could act on.

describe('a long call past the bound of background tasks', () => {
  it('is answered in time that too many tasks run, and stopped', async () => {
    const calls = new BackgroundCalls();
    for (let i = 0; i < BACKGROUND_LIMITS.running; i++) calls.watch('other', 'home', () => undefined).answerLater();
    const sent: JSONRPCMessage[] = [];
    const signals: CallContext['signal'][] = [];
    const logBook = new LogBook();
    const endpoint = new EndpointCalls({
      // A server's call that ends only when it is cancelled.
      tools: {
        has: () => true,
        call: (_name, _args, context) =>
          new Promise((resolve) => {
            signals.push(context.signal);
            context.signal?.addEventListener('abort', () =>
              resolve({ result: { content: [{ type: 'text', text: 'stopped' }], isError: true } }),
            );
          }),
      },
      caller: 'home',
      send: (message) => sent.push(message),
      log: logBook.logger('test'),
      longCalls: { answerAfterMs: () => 20, calls, language: () => 'en' },
    });
    endpoint.handle({ id: 7, params: { name: 'slow_report', arguments: {} } });
    await waitFor(() => sent.length > 0, 5000, 'an answer');
    expect(sent[0]).toMatchObject({
      id: 7,
      result: {
        isError: true,
        content: [{ text: 'Too many tasks are running, so slow report was stopped. Try again when some have finished.' }],
      },
    });
    expect(signals[0]?.aborted).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
  });
});
