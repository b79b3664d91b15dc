import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';
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

const SUGGESTED = '查询某个城市的天气预报。人们会说：明天北京天气怎么样、会下雨吗。';

/**
 * A model that picks weather_get only when its description speaks of a forecast or rain, as a real
 * model passes over a tool whose description does not match what people say; asked for a
 * description (no tools offered), it writes one that does.
 */
function choosyModel(body: ChatBody) {
  if (!body.tools) return { text: `“${SUGGESTED}”` };
  const weather = body.tools.find((t) => t.function.name === 'weather_get');
  const sentence = ModelStandIn.sentence(body);
  if (weather && /预报|下雨/.test(weather.function.description ?? '')) return { call: 'weather_get', arguments: { city: '北京' } };
  return { text: /天气|雨/.test(sentence) ? '我不清楚。' : '好的。' };
}

describe('sentence sets, check all, and a shorter description accepted', () => {
  it('finds the tool the model passes over, suggests a description in the voice language, and the check passes once it is accepted', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')], ui: { language: 'zh-CN' } });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const { api } = harness.bridge;
    await api.setModel({ provider: 'custom', baseUrl: provider.baseUrl, model: 'stand-in-chat', apiKey: MODEL_KEY });
    provider.reply = choosyModel;
    // Kept with the config: blank lines dropped.
    await api.setToolSentences({ server: 'fx', tool: 'weather.get', sentences: ['明天北京天气怎么样？', ' ', '后天会下雨吗'] });
    expect((await api.getSettings()).sentences).toEqual({ fx: { 'weather.get': ['明天北京天气怎么样？', '后天会下雨吗'] } });

    const plan = await api.planSentenceCheck({});
    expect(plan).toMatchObject({ sentences: 2, tools: 1, requests: 2, model: 'stand-in-chat' });

    const before = await api.checkSentences({});
    expect(before.tools).toEqual([
      expect.objectContaining({ server: 'fx', tool: 'weather.get', name: 'weather_get', total: 2, passed: 0 }),
    ]);
    expect(before.tools[0]?.failures.map((f) => f.reason)).toEqual(['none', 'none']);

    const suggested = await api.suggestDescription({ server: 'fx', tool: 'weather.get' });
    if (!('description' in suggested)) throw new Error(`no suggestion: ${JSON.stringify(suggested)}`);
    // One line, the quotes the model wrapped it in taken off; the sentences that failed were given to the model.
    expect(suggested.description).toBe(SUGGESTED);
    expect(suggested.current).toBe('查询天气 (a name with a dot)');
    expect(ModelStandIn.sentence(provider.seen.at(-1)!.body)).toContain('明天北京天气怎么样？');
    expect(suggested.newBytes - suggested.currentBytes).toBe(
      Buffer.byteLength(JSON.stringify(SUGGESTED)) - Buffer.byteLength(JSON.stringify(suggested.current)),
    );

    // Accepted into the existing per-tool description override: what xiaozhi is served changes, and the check passes.
    await api.setToolDescription({ server: 'fx', tool: 'weather.get', description: suggested.description });
    const after = await api.checkSentences({ server: 'fx', tool: 'weather.get' });
    expect(after.tools[0]).toMatchObject({ name: 'weather_get', total: 2, passed: 2, failures: [] });
  });

  it('a check of a tool that is not served says so, and asks nothing for it', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const { api } = harness.bridge;
    await api.setModel({ provider: 'custom', baseUrl: provider.baseUrl, model: 'stand-in-chat', apiKey: MODEL_KEY });
    await api.setToolSentences({ server: 'gone', tool: 'lights', sentences: ['turn the lights on'] });
    const checked = await api.checkSentences({});
    expect(checked.tools).toEqual([expect.objectContaining({ server: 'gone', tool: 'lights', total: 1, passed: 0 })]);
    expect(checked.tools[0]?.name).toBeUndefined();
    expect(provider.seen).toEqual([]);
  });
});
