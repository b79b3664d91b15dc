import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { logText, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { MODEL_KEY, ModelStandIn } from '../../../helpers/model-stand-in';

// A server's sampling/createMessage during a call by voice, answered by the user's model when they agreed
// to it (issue 36). The real peer: @modelcontextprotocol/server-everything's trigger-sampling-request
// (dist/tools/trigger-sampling-request.js), a stdio child that asks its client for a completion and
// answers with what it got.

const EVERYTHING = path.resolve(__dirname, '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ctx = withEndpointTeardown(afterEach);
let provider: ModelStandIn;
beforeEach(async () => {
  provider = await ModelStandIn.start();
});
afterEach(async () => {
  await provider.close();
});

async function speaker(sampling: boolean): Promise<Esp32Client> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
    servers: [{ name: 'everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }],
    model: { provider: 'custom', baseUrl: provider.baseUrl, model: 'stand-in-chat', apiKey: MODEL_KEY, sampling: { enabled: sampling } },
  });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  return Esp32Client.open(await ctx.xiaozhi.connection(0));
}

describe("a server's sampling during a call by voice", () => {
  it('is answered by the configured model when the user agreed, and only its size is logged', async () => {
    provider.reply = (body) => ({ text: `A poem about ${ModelStandIn.sentence(body).includes('tea') ? 'tea' : '?'}: steam rises.` });
    const esp = await speaker(true);
    const heard = await esp.say('trigger-sampling-request', { prompt: 'Write about green tea', maxTokens: 4000 });
    expect(heard).toContain('A poem about tea: steam rises.');
    // The server's prompt reached the model, bounded by the user's token limit (512 by default), not the server's 4000.
    expect(provider.seen).toHaveLength(1);
    expect(ModelStandIn.sentence(provider.seen[0]!.body)).toContain('Write about green tea');
    expect(provider.seen[0]!.body.max_tokens).toBe(512);
    const log = logText(ctx.harness!.logBook);
    expect(log).toMatch(/asked the model during a call by voice/);
    expect(log).not.toContain('green tea');
    expect(log).not.toContain(MODEL_KEY);
  }, 60_000);

  it('is refused as before without the consent, and the model is never asked', async () => {
    const esp = await speaker(false);
    const heard = await esp.say('trigger-sampling-request', { prompt: 'hello' });
    expect(heard).toMatch(/wanted to use an AI model/);
    expect(provider.seen).toEqual([]);
  }, 60_000);

  it('a model that fails is said as the tool wanting a model that could not answer', async () => {
    provider.failure = 'rate-limit';
    const esp = await speaker(true);
    const heard = await esp.say('trigger-sampling-request', { prompt: 'hello' });
    expect(heard).toMatch(/AI model/);
    expect(provider.seen).toHaveLength(1);
    expect(logText(ctx.harness!.logBook)).toMatch(
      /could not answer server "everything"'s sampling request: the model provider is rate limiting/,
    );
  }, 60_000);
});
