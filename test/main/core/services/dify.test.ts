import { describe, expect, it } from 'vitest';

import { logText } from '../../../helpers/bridge-harness';
import { DIFY_KEYS } from '../../../helpers/service-stand-ins';
import { serviceRuns } from './service-harness';

/**
 * Dify as it really answers (test/helpers/stand-ins/dify-stand-in.ts, written from
 * api/controllers/service_api/app/*.py and the API templates' own words).
 */
const serve = serviceRuns();
const dify =
  (key: string, extra: Record<string, unknown> = {}) =>
  (base: string) => [{ name: 'dify', transport: 'dify', baseUrl: `${base}/dify/v1`, apiKey: key, tool: 'dify_app', ...extra }];
const bodies = (run: Awaited<ReturnType<typeof serve>>, path: string) =>
  run.requests(`/dify/v1${path}`).map((r) => r.body as Record<string, unknown>);

describe('a Dify agent app (it refuses blocking mode)', () => {
  it('is asked in streaming mode and answers the agent’s message', async () => {
    const run = await serve(dify(DIFY_KEYS.agent));
    expect(run.harness.bridge.state().servers[0]?.state).toBe('running');
    expect(await run.call('dify_app', { query: 'a train to Suzhou' })).toEqual({ text: 'I planned it: a train to Suzhou', isError: false });
    expect(bodies(run, '/chat-messages')[0]).toMatchObject({ response_mode: 'streaming', query: 'a train to Suzhou' });
  });

  it('is a chat app whatever "app" says: Dify’s own mode (GET /info) decides the route', async () => {
    const run = await serve(dify(DIFY_KEYS.chat, { app: 'workflow' }));
    expect(await run.call('dify_app', { query: 'hello' })).toEqual({ text: 'You said: hello', isError: false });
    expect(bodies(run, '/chat-messages')[0]).toMatchObject({ query: 'hello' });
    expect(bodies(run, '/workflows/run')).toEqual([]);
  });
});

describe('a Dify workflow that may run longer than Dify Cloud lets a blocking request wait (100 s)', () => {
  it('is run in streaming mode when its call may last longer, and answers its outputs', async () => {
    const run = await serve(dify(DIFY_KEYS.slow, { callTimeoutMs: 150_000 }));
    expect(await run.call('dify_app', { topic: 'tides' })).toEqual({ text: 'A report on tides', isError: false });
    expect(bodies(run, '/workflows/run')[0]).toMatchObject({ response_mode: 'streaming' });
  });

  it('a call by voice may go on in the background (30 minutes): it streams too', async () => {
    const run = await serve(dify(DIFY_KEYS.slow));
    expect(await run.call('dify_app', { topic: 'rivers' })).toEqual({ text: 'A report on rivers', isError: false });
    expect(bodies(run, '/workflows/run')[0]).toMatchObject({ response_mode: 'streaming' });
  });

  it('a call that must end within the call timeout (Try it) stays in blocking mode', async () => {
    const run = await serve(dify(DIFY_KEYS.workflow));
    expect((await run.harness.bridge.api.callTool({ name: 'dify_app', arguments: { city: 'Shanghai' } })).text).toBe(
      'It will rain in Shanghai',
    );
    expect(bodies(run, '/workflows/run')[0]).toMatchObject({ response_mode: 'blocking' });
  });
});

describe('the name and description a Dify app serves', () => {
  it('come from its GET /info when the settings give none, so a search in its own words finds it', async () => {
    const run = await serve((base) => [{ name: 'dify', transport: 'dify', baseUrl: `${base}/dify/v1`, apiKey: DIFY_KEYS.workflow }]);
    const { tools } = await run.session.listAllTools();
    const tool = tools.find((t) => String(t.description).includes('查询城市的天气预报'));
    expect(tool?.description).toBe('天气预报: 查询城市的天气预报');
    expect(tool?.name).toBe('dify_workflow');
    const found = await run.harness.bridge.api.searchTools({ query: '天气' });
    expect(JSON.stringify(found)).toContain('dify_workflow');
  });
});

describe('a Dify run that failed', () => {
  it('is said as a failed run with Dify’s reason, not as "(code failed)"', async () => {
    const run = await serve(dify(DIFY_KEYS.workflow));
    expect(await run.call('dify_app', { city: 'Atlantis' })).toEqual({
      text: 'The tool "dify_app" failed: The Dify run failed: The weather node could not find the city.',
      isError: true,
    });
    const fromWindow = await run.harness.bridge.api.callTool({ name: 'dify_app', arguments: { city: 'Atlantis' } });
    expect(fromWindow.error).toEqual({
      code: 'service.runFailed',
      params: { platform: 'Dify', message: 'The weather node could not find the city' },
    });
  });

  it('in Chinese too', async () => {
    const run = await serve(dify(DIFY_KEYS.workflow), { ui: { language: 'zh-CN' } });
    expect((await run.call('dify_app', { city: 'Atlantis' })).text).toBe(
      '工具“dify_app”出错了：Dify 运行失败：The weather node could not find the city。',
    );
  });
});

describe('an output name that matches no output of the workflow', () => {
  it('is said, with the outputs there are, instead of an empty answer', async () => {
    const run = await serve(dify(DIFY_KEYS.twoOutputs, { output: 'answer' }));
    expect(await run.call('dify_app', { city: 'Hangzhou' })).toEqual({
      text: 'It ran, but it has no output called answer. Its outputs: summary, temperature',
      isError: false,
    });
    expect((await run.call('dify_app', { city: 'Hangzhou' })).isError).toBe(false);
  });

  it('is warned of at setup when the workflow has run before', async () => {
    const run = await serve(dify(DIFY_KEYS.twoOutputs, { output: 'answer' }));
    await run.call('dify_app', { city: 'Hangzhou' });
    await run.harness.bridge.api.restartServer({ name: 'dify' });
    await run.harness.bridge.whenServersSettled();
    expect(logText(run.harness.logBook)).toContain('Dify has no output called answer (its last run had: summary, temperature)');
  });
});
