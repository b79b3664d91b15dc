import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { EndpointCalls } from '../../../../src/main/core/endpoint/endpoint-calls';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { BackgroundCalls } from '../../../../src/main/core/long-calls/background-calls';
import { waitFor } from '../../../helpers/wait';

// Before: a second yes/no question in the same call got a task id back as if the caller had
// heard it, so its code went nowhere and the question waited a minute before it was declined.

describe("a server's questions during one call by voice", () => {
  it('only the first is put to the caller; the second is told no one hears it (the window asks it)', async () => {
    const sent: JSONRPCMessage[] = [];
    const answers: (string | undefined)[] = [];
    let finish: () => void = () => {};
    const endpoint = new EndpointCalls({
      tools: {
        has: () => true,
        call: (_name, _args, context) => {
          answers.push(context.answerNow?.((id) => `first question (task ${id})`));
          answers.push(context.answerNow?.((id) => `second question (task ${id})`));
          return new Promise((resolve) => {
            finish = () => resolve({ result: { content: [{ type: 'text', text: 'done' }] } });
          });
        },
      },
      caller: 'home',
      send: (message) => sent.push(message),
      log: new LogBook().logger('test'),
      longCalls: { answerAfterMs: () => 60_000, calls: new BackgroundCalls(), language: () => 'en' },
    });
    endpoint.handle({ id: 1, params: { name: 'asks_twice', arguments: {} } });
    await waitFor(() => answers.length === 2, 5000, 'both questions');
    expect(answers[0]).toMatch(/^[2-9][A-Z]$/);
    expect(answers[1]).toBeUndefined();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ id: 1, result: { content: [{ text: `first question (task ${answers[0]})` }] } });
    finish();
  });
});
