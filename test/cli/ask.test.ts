import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { SentenceTry } from '../../src/shared/model-api';
import { type ChatBody, MODEL_KEY, ModelStandIn } from '../helpers/model-stand-in';
import { CliHarness, fixtureEntry } from './cli-harness';

/** `xiaozhi-tray ask`: a sentence put to the config's model with what an endpoint serves, against the stand-in provider. */
const h = new CliHarness();
let provider: ModelStandIn;
beforeEach(async () => {
  provider = await ModelStandIn.start();
});
afterEach(async () => {
  h.cleanup();
  await provider.close();
});

/** A config with the fixture server (echo…), the stand-in as its model, and what else is given. */
function config(extra: Record<string, unknown> = {}): string {
  return h.writeConfig({
    servers: [{ name: 'fx', transport: 'stdio', ...fixtureEntry({}) }],
    model: { provider: 'custom', baseUrl: provider.baseUrl, model: 'stand-in-chat', apiKey: MODEL_KEY },
    ...extra,
  });
}

/** The stand-in calls echo with the words after "echo", and says the result back. */
function echoes(body: ChatBody) {
  const last = body.messages[body.messages.length - 1];
  if (last?.role === 'tool') return { text: `It said ${String(last.content)}` };
  const sentence = ModelStandIn.sentence(body);
  return sentence.startsWith('echo ') ? { call: 'echo', arguments: { text: sentence.slice(5) } } : { text: 'No tool for that.' };
}

describe('xiaozhi-tray ask', () => {
  it('prints the tool the model picks and its checked arguments, and runs it only with --run', async () => {
    provider.reply = echoes;
    const file = config();
    const asked = await h.finished(['ask', '--config', file, 'echo 你好']);
    expect(asked.code, asked.err).toBe(0);
    expect(asked.out).toContain('picks echo [fx]');
    expect(asked.out).toContain('arguments: {"text":"你好"}');
    expect(asked.out).toContain('argument check: accepted');
    expect(asked.out).not.toContain('result');
    expect(asked.err).toMatch(/1 request to stand-in-chat/);
    expect(provider.seen).toHaveLength(1);

    const ran = await h.finished(['ask', '--config', file, '--run', 'echo ping']);
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).toMatch(/result: .*ping/);
    expect(ran.out).toMatch(/then xiaozhi says: It said .*ping/);
  });

  it('tries the tools of the endpoint named, in its mode: in router mode, a search then call_tool', async () => {
    // The model searches first, then calls what it found through call_tool, as it would in router mode.
    provider.reply = (body) => {
      const tools = body.messages.filter((m) => m.role === 'tool').length;
      if (tools === 0) return { call: 'find_tools', arguments: { query: 'echo text' } };
      return { call: 'call_tool', arguments: { name: 'echo', arguments: { text: 'hi' } } };
    };
    const file = config({
      endpoints: [{ id: 'r', name: 'study', url: 'wss://api.xiaozhi.me/mcp/?token=abc.def.ghi', toolMode: 'router' }],
    });
    const asked = await h.finished(['ask', '--config', file, '--endpoint', 'study', '--json', 'echo hi']);
    expect(asked.code, asked.err).toBe(0);
    // Router mode serves find_tools and call_tool, not echo itself.
    expect(ModelStandIn.offered(provider.seen[0]!.body)).toEqual(expect.arrayContaining(['find_tools', 'call_tool']));
    expect(ModelStandIn.offered(provider.seen[0]!.body)).not.toContain('echo');
    const tried = JSON.parse(asked.out) as SentenceTry;
    expect(tried).toMatchObject({ mode: 'router', endpoint: 'study', requests: 2 });
    expect(tried.finds[0]).toMatchObject({ query: 'echo text', found: expect.arrayContaining(['echo']) });
    expect(tried.pick).toMatchObject({ name: 'echo', via: 'call_tool', server: 'fx', arguments: { text: 'hi' }, check: 'ok' });
    // No endpoint was connected for it: the config's URL was never dialled (it would fail, and be logged).
    expect(asked.err).not.toMatch(/api\.xiaozhi\.me/);
  });

  it('says a refused key in the terminal’s language, without the key, and exits 1', async () => {
    provider.key = 'sk-the-right-one';
    const file = config();
    const en = await h.finished(['ask', '--config', file, 'echo hi']);
    expect(en.code).toBe(1);
    expect(en.err).toMatch(/refused the API key/);
    const zh = await h.finished(['ask', '--lang', 'zh-CN', '--config', file, 'echo hi']);
    expect(zh.code).toBe(1);
    expect(zh.err).toMatch(/[\u4e00-\u9fff]/);
    for (const run of [en, zh]) expect(run.out + run.err).not.toContain(MODEL_KEY);
  });

  it('without a model, or without a sentence, says what to do', async () => {
    const file = h.writeConfig({ servers: [{ name: 'fx', transport: 'stdio', ...fixtureEntry({}) }] });
    const none = await h.finished(['ask', '--config', file, 'echo hi']);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/no model is set up: add "model" to the config/);
    const empty = await h.finished(['ask', '--config', config()]);
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/say what to ask/);
    expect(provider.seen).toEqual([]);
  });

  it('--check tries every sample sentence and prints per tool how often the right tool was picked', async () => {
    provider.reply = echoes;
    const file = config({ sentences: { fx: { echo: ['echo one', 'echo two', 'repeat after me: three'] } } });
    const checked = await h.finished(['ask', '--config', file, '--check']);
    expect(checked.code, checked.err).toBe(1);
    expect(checked.out).toContain('echo: 2/3 picked');
    expect(checked.out).toContain('"repeat after me: three" → no tool');
  });
});
