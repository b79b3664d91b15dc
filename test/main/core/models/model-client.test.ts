import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ModelClient } from '../../../../src/main/core/models/model-client';
import { ModelError } from '../../../../src/main/core/models/model-problems';
import { translator } from '../../../../src/shared/i18n/translate';
import type { Problem } from '../../../../src/shared/problem';
import { problemMessage } from '../../../../src/shared/problem-words';
import { MODEL_KEY, ModelStandIn } from '../../../helpers/model-stand-in';
import { scaled } from '../../../helpers/time-scale';

let provider: ModelStandIn;
beforeEach(async () => {
  provider = await ModelStandIn.start();
});
afterEach(async () => {
  await provider.close();
});

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

const client = (extra: { apiKey?: string; stream?: boolean; timeoutMs?: number } = {}) =>
  new ModelClient(
    {
      provider: 'custom',
      baseUrl: provider.baseUrl,
      model: 'stand-in-chat',
      apiKey: extra.apiKey ?? MODEL_KEY,
      stream: extra.stream,
      sampling: {} as never,
    },
    extra.timeoutMs !== undefined ? { timeoutMs: extra.timeoutMs } : {},
  );

/** The problem a failed request became, and its words in both languages. */
async function failure(request: Promise<unknown>): Promise<{ problem: Problem; message: string; en: string; zh: string }> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  const { problem } = error as ModelError;
  return {
    problem,
    message: (error as Error).message,
    en: problemMessage(translator('en'), problem, undefined)?.message ?? '',
    zh: problemMessage(translator('zh-CN'), problem, undefined)?.message ?? '',
  };
}

describe('the OpenAI-compatible model client', () => {
  it.each([false, true])('reads the function the model called, whole (stream: %s)', async (stream) => {
    provider.reply = () => ({ call: 'get_weather', arguments: { city: '北京', days: 3 } });
    const reply = await client({ stream }).chat({ messages: [{ role: 'user', content: '北京天气' }], tools: [weather] });
    expect(reply.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city":"北京","days":3}' }]);
    expect(reply.finish).toBe('tool_calls');
    // The provider was sent the model, the messages, the tools and the key, and asked to stream or not.
    const [seen] = provider.seen;
    expect(seen?.body).toMatchObject({ model: 'stand-in-chat', tools: [weather], messages: [{ role: 'user', content: '北京天气' }] });
    expect(seen?.body.stream === true).toBe(stream);
    expect(seen?.authorization).toBe(`Bearer ${MODEL_KEY}`);
  });

  it.each([false, true])('reads what the model said, joined (stream: %s)', async (stream) => {
    provider.reply = () => ({ text: '好的，明天北京晴。' });
    const reply = await client({ stream }).chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(reply).toMatchObject({ content: '好的，明天北京晴。', toolCalls: [], finish: 'stop' });
    // No tools offered: the request carries none (some providers refuse an empty list).
    expect(provider.seen[0]?.body.tools).toBeUndefined();
  });

  it('says a refused key as that, in both languages, and never says the key', async () => {
    const wrong = 'sk-WRONG-key-that-must-not-show-0001';
    const said = await failure(client({ apiKey: wrong }).chat({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(said.problem).toMatchObject({ code: 'model.badKey', params: { status: 401 } });
    expect(said.en).toMatch(/refused the API key/);
    expect(said.zh).toMatch(/API Key|密钥/);
    expect(JSON.stringify(said)).not.toContain(wrong);
  });

  it('says a rate limit with the wait the provider asks for', async () => {
    provider.failure = 'rate-limit';
    const said = await failure(client().chat({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(said.problem).toMatchObject({ code: 'model.rateLimited', params: { seconds: 20 } });
    expect(said.en).toContain('20 s');
    expect(said.zh).toContain('20');
    // One request: the client does not retry on its own (each retry would cost the user).
    expect(provider.seen).toHaveLength(1);
  });

  it('tells a context-length refusal from its message (DeepSeek gives no code of its own)', async () => {
    provider.failure = 'context-length';
    const said = await failure(client().chat({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(said.problem.code).toBe('model.contextTooLong');
    expect(said.en).toMatch(/longer than this model can read/);
    expect(said.zh).not.toBe('');
  });

  it('says a provider that does not answer in time, and one that cannot be reached', async () => {
    provider.failure = 'no-answer';
    const slow = await failure(client({ timeoutMs: scaled(300) }).chat({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(slow.problem.code).toBe('model.timeout');
    const address = provider.baseUrl;
    await provider.close();
    const gone = await failure(
      new ModelClient({ provider: 'custom', baseUrl: address, model: 'm', sampling: {} as never }).chat({
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(gone.problem).toMatchObject({ code: 'model.unreachable', params: { url: address } });
    expect(gone.zh).not.toBe('');
    provider = await ModelStandIn.start();
  });
});
