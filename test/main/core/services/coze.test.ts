import { describe, expect, it } from 'vitest';

import { COZE_WORKFLOWS, SECRETS } from '../../../helpers/service-stand-ins';
import { serviceRuns } from './service-harness';

/**
 * Coze as it really answers (test/helpers/stand-ins/coze-stand-in.ts, written from Coze's developer
 * guide: workflow_run, workflow_stream_run, resume_workflow, coze_error_codes).
 */
const serve = serviceRuns();
const coze =
  (extra: Record<string, unknown> = {}) =>
  (base: string) => [
    {
      name: 'coze',
      transport: 'coze',
      baseUrl: `${base}/coze`,
      token: SECRETS.coze,
      workflows: [
        { id: COZE_WORKFLOWS.weather, tool: 'coze_weather', inputs: [{ name: 'city' }] },
        { id: COZE_WORKFLOWS.asks, tool: 'coze_asks', inputs: [] },
        { id: COZE_WORKFLOWS.slow, tool: 'coze_report', inputs: [{ name: 'topic' }] },
        { id: COZE_WORKFLOWS.plugin, tool: 'coze_calendar', inputs: [] },
        { id: '7399999999999999999', tool: 'coze_missing', inputs: [] },
      ],
      ...extra,
    },
  ];
// The runs (a workflow's information, read at start, aside).
const paths = (run: Awaited<ReturnType<typeof serve>>) =>
  run
    .requests('/coze/')
    .filter((r) => r.method === 'POST')
    .map((r) => r.path);

describe('a Coze workflow that stops at a question node', () => {
  it('says the question and how to answer it, and the answer resumes it (by voice: streamed)', async () => {
    const run = await serve(coze());
    expect(await run.call('coze_asks')).toEqual({
      text: 'Coze asks: Which city do you want the weather for? To answer, call coze_asks again with "answer" set to the reply.',
      isError: false,
    });
    expect(await run.call('coze_asks', { answer: 'Hangzhou' })).toEqual({ text: 'Sunny and 23 degrees in Hangzhou', isError: false });
    expect(paths(run)).toEqual(['/coze/v1/workflow/stream_run', '/coze/v1/workflow/stream_resume']);
    expect(run.requests('/coze/v1/workflow/stream_resume')[0]?.body).toMatchObject({
      workflow_id: COZE_WORKFLOWS.asks,
      resume_data: 'Hangzhou',
      interrupt_type: 2,
    });
  });

  it('the same in blocking mode (a call that must end within the call timeout), in Chinese', async () => {
    const run = await serve(coze(), { ui: { language: 'zh-CN' } });
    const ask = await run.harness.bridge.api.callTool({ name: 'coze_asks', arguments: {} });
    expect(ask.text).toBe('Coze 在问：Which city do you want the weather for? 回答时，再调用一次 coze_asks，把回答放在 answer 里。');
    const answer = await run.harness.bridge.api.callTool({ name: 'coze_asks', arguments: { answer: 'Ningbo' } });
    expect(answer.text).toBe('Sunny and 23 degrees in Ningbo');
    expect(paths(run)).toEqual(['/coze/v1/workflow/run', '/coze/v1/workflows/resume']);
  });

  it('a stop only the Coze app can answer (an OAuth plugin) says so', async () => {
    const run = await serve(coze());
    expect(await run.call('coze_calendar')).toEqual({
      text: 'The Coze workflow stopped at "日历插件", which only the Coze app can answer.',
      isError: false,
    });
  });

  it('the answer argument is offered, described in the voice language', async () => {
    const run = await serve(coze());
    const { tools } = await run.session.listAllTools();
    const schema = tools.find((t) => t.name === 'coze_asks')?.inputSchema as {
      properties: Record<string, { description?: string }>;
      required?: string[];
    };
    expect(schema.properties.answer?.description).toMatch(/answer a question this workflow just asked/);
    expect(schema.required ?? []).not.toContain('answer');
  });
});

describe('a Coze error', () => {
  it('keeps its whole message, not only its first sentence', async () => {
    const run = await serve(coze());
    expect(await run.call('coze_missing')).toEqual({
      text: 'The tool "coze_missing" failed: Coze refused the request: The workflow does not exist or has not been published. Publish it in Coze, then call it again with the workflow ID from its page. (code 4200).',
      isError: true,
    });
  });
});

describe('a Coze workflow that runs longer than a blocking call may wait (90 s)', () => {
  it('is run with the streaming endpoint when the call may last longer (by voice)', async () => {
    const run = await serve(coze());
    expect(await run.call('coze_report', { topic: 'tides' })).toEqual({ text: 'A long report on tides', isError: false });
    expect(paths(run)).toEqual(['/coze/v1/workflow/stream_run']);
  });

  it('a call that must end within a minute stays blocking', async () => {
    const run = await serve(coze());
    expect((await run.harness.bridge.api.callTool({ name: 'coze_weather', arguments: { city: 'Beijing' } })).text).toBe(
      'Sunny and 23 degrees in Beijing',
    );
    expect(paths(run)).toEqual(['/coze/v1/workflow/run']);
  });
});

describe('a Coze workflow configured by its id alone', () => {
  const bare = (base: string) => [
    {
      name: 'coze',
      transport: 'coze',
      baseUrl: `${base}/coze`,
      token: SECRETS.coze,
      workflows: [{ id: COZE_WORKFLOWS.weather, tool: 'coze_weather' }],
    },
  ];

  it('is described and given its inputs by Coze (its name, description and start node), so a search in its words finds it', async () => {
    const run = await serve(bare);
    const { tools } = await run.session.listAllTools();
    const tool = tools.find((t) => t.name === 'coze_weather');
    expect(tool?.description).toBe('weather_report: 查询城市的天气');
    expect(tool?.inputSchema).toMatchObject({
      properties: { city: { type: 'string', description: '城市名称' }, days: { type: 'integer' } },
      required: ['city'],
    });
    expect(JSON.stringify(tool?.inputSchema)).not.toContain('photo');
    expect((await run.harness.bridge.api.searchTools({ query: '天气' })).map((h) => h.name)).toContain('coze_weather');
    expect(await run.call('coze_weather', { city: 'Suzhou' })).toEqual({ text: 'Sunny and 23 degrees in Suzhou', isError: false });
  });

  it('a token that may not read it (no getMetaData permission) still runs it, as configured', async () => {
    const run = await serve(bare, {}, (standIns) => (standIns.coze.metadata = false));
    expect(run.harness.bridge.state().servers[0]?.state).toBe('running');
    expect(await run.call('coze_weather', { city: 'Suzhou' })).toEqual({ text: 'Sunny and 23 degrees in Suzhou', isError: false });
  });
});
