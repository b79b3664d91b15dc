import { describe, expect, it } from 'vitest';

import { SECRETS } from '../../../helpers/service-stand-ins';
import { serviceRuns } from './service-harness';

/**
 * n8n's webhooks as they really answer (test/helpers/stand-ins/n8n-stand-in.ts, written from the
 * Webhook node, the last-node response extractor's tests and webhook-not-found.error.ts).
 */
const serve = serviceRuns();
const hook =
  (name: string, path: string, extra: Record<string, unknown> = {}) =>
  (base: string) => ({
    name,
    transport: 'n8n',
    url: `${base}/n8n/webhook/${path}`,
    tool: name,
    ...extra,
  });
const hooks = (base: string) => [
  hook('n8n_quiet', 'quiet')(base),
  hook('n8n_started', 'started')(base),
  hook('n8n_respond', 'respond')(base),
  hook('n8n_failing', 'failing')(base),
  hook('n8n_missing', 'nothere')(base),
  hook('n8n_status', 'status', { method: 'POST' })(base),
  hook('n8n_pick', 'lights', {
    headers: { 'X-N8N-Key': SECRETS.n8n },
    inputs: [{ name: 'room' }, { name: 'state' }],
    result: { pick: '/answer' },
  })(base),
  hook('n8n_template', 'lights', {
    headers: { 'X-N8N-Key': SECRETS.n8n },
    inputs: [{ name: 'room' }, { name: 'state' }],
    result: { template: 'The lights: {/lights/state}' },
  })(base),
];

describe('n8n webhooks', () => {
  it('a workflow that answers with no body ("When last node finishes", no response body) is said to have run', async () => {
    const run = await serve(hooks);
    expect(await run.call('n8n_quiet')).toEqual({ text: 'The n8n workflow ran; it answered nothing.', isError: false });
  });

  it('says it in Chinese to a Chinese voice', async () => {
    const run = await serve(hooks, { ui: { language: 'zh-CN' } });
    expect((await run.call('n8n_quiet')).text).toBe('n8n 工作流已运行，没有返回内容。');
  });

  it('keeps n8n’s hint with its message when the webhook is not registered (an inactive workflow)', async () => {
    const run = await serve(hooks);
    expect(await run.call('n8n_missing')).toEqual({
      text: 'The tool "n8n_missing" failed: n8n answered HTTP 404: The requested webhook "POST nothere" is not registered. The workflow must be active for a production URL to run successfully.',
      isError: true,
    });
  });

  it('says a pick that matches nothing in the answer, with what it answered', async () => {
    const run = await serve(hooks);
    expect(await run.call('n8n_pick', { room: 'hall', state: 'on' })).toEqual({
      text: 'It ran, but its answer has no /answer. It answered: {"reply":"Turned the hall lights on"}',
      isError: false,
    });
    expect(await run.call('n8n_template', { room: 'hall', state: 'on' })).toEqual({
      text: 'It ran, but its answer has no /lights/state. It answered: {"reply":"Turned the hall lights on"}',
      isError: false,
    });
  });

  it('answers the other ways a workflow responds as n8n sends them', async () => {
    const run = await serve(hooks);
    expect(await run.call('n8n_started')).toEqual({ text: 'Workflow was started', isError: false });
    expect(await run.call('n8n_respond')).toEqual({ text: 'OK, the heating is set', isError: false });
    expect(await run.call('n8n_failing')).toEqual({
      text: 'The tool "n8n_failing" failed: n8n answered HTTP 500: Error in workflow.',
      isError: true,
    });
    expect((await run.call('n8n_status')).text).toBe(
      'The tool "n8n_status" failed: n8n answered HTTP 404: This webhook is not registered for POST requests. Did you mean to make a GET request?',
    );
  });
});
