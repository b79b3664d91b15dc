import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { ToolPolicy } from '../../../../src/shared/settings';
import { fixtureServer, type Harness, logText, makeBridge } from '../../../helpers/bridge-harness';
import { type ChatBody, MODEL_KEY, ModelStandIn } from '../../../helpers/model-stand-in';

let provider: ModelStandIn;
let harness: Harness | undefined;
beforeEach(async () => {
  provider = await ModelStandIn.start();
});
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  await provider.close();
});

/** A bridge with one fixture server ("fx": echo, weather.get…), the stand-in as its model, servers up. */
async function bridgeWithModel(policies: Record<string, ToolPolicy> = {}, language: 'en' | 'zh-CN' = 'en'): Promise<Harness> {
  harness = makeBridge({ servers: [fixtureServer('fx', {}, { toolPolicies: policies })], ui: { language } });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  await harness.bridge.api.setModel({ provider: 'custom', baseUrl: provider.baseUrl, model: 'stand-in-chat', apiKey: MODEL_KEY });
  return harness;
}

/** The stand-in calls `tool` with `args` when offered it, then says what it heard in the result. */
function picks(tool: string, args: unknown): void {
  provider.reply = (body: ChatBody) => {
    const last = body.messages[body.messages.length - 1];
    if (last?.role === 'tool') return { text: `Done: ${String(last.content)}` };
    return ModelStandIn.offered(body).includes(tool) ? { call: tool, arguments: args } : { text: 'I have no tool for that.' };
  };
}

const fxCalls = async (h: Harness) => (await h.bridge.api.getHistory()).filter((c) => c.server === 'fx');

describe('a sentence tried against the tools as served', () => {
  it('shows the tool the model picks and its arguments, checked, and runs nothing unasked', async () => {
    const h = await bridgeWithModel();
    picks('echo', { text: '你好' });
    const tried = await h.bridge.api.trySentence({ sentence: '跟我说你好' });
    expect(tried.pick).toMatchObject({ name: 'echo', server: 'fx', tool: 'echo', via: 'direct', arguments: { text: '你好' }, check: 'ok' });
    expect(tried.run).toBeUndefined();
    expect(tried.requests).toBe(1);
    // The model was given the functions the endpoint serves, with their descriptions, and the sentence as said.
    const sent = provider.seen[0]!.body;
    expect(ModelStandIn.offered(sent)).toEqual(expect.arrayContaining(['echo', 'weather_get']));
    expect(sent.tools?.find((t) => t.function.name === 'echo')?.function).toMatchObject({
      description: 'Echoes its text (fx)',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    expect(tried.functions).toBe(sent.tools?.length);
    expect(ModelStandIn.sentence(sent)).toBe('跟我说你好');
    expect(sent.messages[0]?.role).toBe('system');
    expect(await fxCalls(h)).toEqual([]);
  });

  it('says when our argument check refuses what the model wrote, in the voice language', async () => {
    const h = await bridgeWithModel({}, 'zh-CN');
    picks('echo', { words: 'hi' });
    const tried = await h.bridge.api.trySentence({ sentence: 'say hi' });
    expect(tried.pick).toMatchObject({ name: 'echo', check: 'refused' });
    expect(tried.pick?.checkText).toMatch(/text/);
    expect(tried.pick?.checkText).toMatch(/[\u4e00-\u9fff]/);
    // Arguments that are not JSON are shown as written, and refused.
    picks('echo', '{"text": "unterminated');
    const broken = await h.bridge.api.trySentence({ sentence: 'say hi' });
    expect(broken.pick).toMatchObject({ name: 'echo', argumentsText: '{"text": "unterminated', check: 'refused' });
  });

  it('says a name the endpoint does not serve is no tool, and an answer without a tool as the answer', async () => {
    const h = await bridgeWithModel();
    provider.reply = () => ({ call: 'turn_on_lights', arguments: {} });
    expect((await h.bridge.api.trySentence({ sentence: 'lights on', run: true })).pick).toMatchObject({
      name: 'turn_on_lights',
      check: 'unknown',
    });
    provider.reply = () => ({ text: '今天天气不错。' });
    const tried = await h.bridge.api.trySentence({ sentence: '随便聊聊' });
    expect(tried.pick).toBeUndefined();
    expect(tried.answer).toBe('今天天气不错。');
    expect(await fxCalls(h)).toEqual([]);
  });

  it('runs the pick only when asked, as a call by voice, and shows what the model says after', async () => {
    const h = await bridgeWithModel();
    picks('echo', { text: 'ping' });
    const tried = await h.bridge.api.trySentence({ sentence: 'echo ping', run: true });
    expect(tried.run).toMatchObject({ isError: false, text: expect.stringContaining('ping') });
    expect(tried.said).toMatch(/^Done: .*ping/);
    expect(tried.requests).toBe(2);
    // The model got the result as the tool's message of the same conversation.
    expect(provider.seen[1]?.body.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('ping') });
    expect(await fxCalls(h)).toHaveLength(1);
  });

  it.each([
    ['never', undefined],
    ['ask', 'pin'],
  ] as const)('keeps the voice policy "%s" when running', async (policy, held) => {
    const h = await bridgeWithModel({ echo: policy });
    picks('echo', { text: 'ping' });
    const tried = await h.bridge.api.trySentence({ sentence: 'echo ping', run: true });
    expect(tried.pick?.check).toBe('ok');
    expect(tried.run?.held).toBe(held);
    if (policy === 'never') expect(tried.run?.isError).toBe(true);
    else expect(tried.session).toEqual(expect.any(String));
    // Held or refused: the server never ran it (the history says which).
    expect((await fxCalls(h)).map((c) => c.outcome)).toEqual([policy === 'never' ? 'error' : 'held']);
  });

  it('without a model says so, and asks nobody', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    const tried = await harness.bridge.api.trySentence({ sentence: 'hello' });
    expect(tried.problem?.code).toBe('model.notConfigured');
    expect(provider.seen).toEqual([]);
  });

  it('never shows the key: not in the settings the window gets, the log, or a refusal', async () => {
    const h = await bridgeWithModel();
    expect(JSON.stringify(await h.bridge.api.getSettings())).not.toContain(MODEL_KEY);
    provider.key = 'sk-another-key';
    const refused = await h.bridge.api.trySentence({ sentence: 'hello' });
    expect(refused.problem?.code).toBe('model.badKey');
    expect(JSON.stringify(refused)).not.toContain(MODEL_KEY);
    expect(logText(h.logBook)).not.toContain(MODEL_KEY);
    // The provider got it, as a bearer token.
    expect(provider.seen[0]?.authorization).toBe(`Bearer ${MODEL_KEY}`);
  });
});
