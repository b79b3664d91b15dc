import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import { isRecord } from '../../../shared/is-record';
import { nameRecord, own } from '../../../shared/own';
import { problem } from '../../../shared/problem';
import type { DifySettingsSchema } from '../../../shared/settings';
import { eventJson, streamEvents } from './event-stream';
import { httpProblem, joinUrl, type RequestOptions, speakable, spoken } from './service-http';
import { serviceEnglish, ServiceError } from './service-problems';
import { type ServiceContext, type ServiceTool, textAnswer } from './service-tools';

type DifySettings = z.output<typeof DifySettingsSchema>;
type Node = Record<string, unknown>;
type DifyMode = 'workflow' | 'chat' | 'advanced-chat' | 'agent-chat' | 'completion';

/** Inputs per app: Dify's forms are short; a longer list is cut. */
const MAX_INPUTS = 50;
/**
 * The longest a blocking request may wait: "Due to Cloudflare restrictions, the request will be
 * interrupted without a return after 100 seconds" (Dify's API page, blocking mode). A call that may
 * last longer streams instead.
 */
const BLOCKING_LIMIT_MS = 100_000;
const USER = 'xiaozhi-tray';

/**
 * A Dify app as one tool (its API page; api/controllers/service_api/app/): what it is read from
 * `GET /info` (its mode, name and description) and its inputs from `GET /parameters`
 * (`user_input_form`); a workflow app is run with `POST /workflows/run`, a chat, agent or chatflow
 * app with `POST /chat-messages` (plus `query`), a text generator with `POST /completion-messages`.
 * Blocking mode where it is allowed and the call is short; streaming for agent apps (which refuse
 * blocking) and for calls that may outlast the 100 s a blocking request is given.
 */
export async function difyTools(settings: DifySettings, context: ServiceContext): Promise<ServiceTool[]> {
  const auth = { authorization: `Bearer ${settings.apiKey}` };
  const platform = context.http.platform;
  const setup = { timeoutMs: context.timeoutMs };
  const info = await appInfo(settings, auth, context);
  const mode: DifyMode = info.mode ?? (settings.app === 'chat' ? 'chat' : 'workflow');
  const parameters = await context.http.sendJson({ method: 'GET', url: joinUrl(settings.baseUrl, '/parameters'), headers: auth }, setup);
  const chat = mode === 'chat' || mode === 'advanced-chat' || mode === 'agent-chat';
  if (settings.output !== undefined && mode === 'workflow') await warnOfOutput(settings, auth, context);
  const said = [info.name, info.description].filter((s) => s).join(': ');
  const tool: Tool = {
    name: settings.tool ?? toolNameOf(info.name, mode),
    description:
      settings.description || said || context.say(chat ? 'voice.service.difyChatDescription' : 'voice.service.difyWorkflowDescription'),
    inputSchema: difySchema(parameters, chat, context.say),
  };
  let warned = false;
  const call = async (args: Record<string, unknown>, options: RequestOptions) => {
    const stream = mode === 'agent-chat' || options.timeoutMs > BLOCKING_LIMIT_MS;
    const { query, ...inputs } = args;
    const post = (path: string, body: Node) =>
      context.http.send(
        {
          method: 'POST',
          url: joinUrl(settings.baseUrl, path),
          headers: { ...auth, ...(stream ? { accept: 'text/event-stream' } : {}) },
          body: { ...body, response_mode: stream ? 'streaming' : 'blocking', user: USER },
        },
        options,
      );
    if (chat || mode === 'completion') {
      const path = chat ? '/chat-messages' : '/completion-messages';
      const answer = await post(path, chat ? { inputs, query: spoken(query) } : { inputs: args });
      return textAnswer(stream ? streamedAnswer(answer.text, platform) : isRecord(answer.json) ? spoken(answer.json.answer) : '');
    }
    const answer = await post('/workflows/run', { inputs: args });
    const data = stream
      ? streamedRun(answer.text, platform)
      : isRecord(answer.json) && isRecord(answer.json.data)
        ? answer.json.data
        : undefined;
    if (!data) throw new ServiceError(problem('service.notJson', { platform, status: answer.status }));
    const outputs = runOutputs(data, platform, context);
    if (typeof outputs === 'string') return textAnswer(outputs);
    if (settings.output === undefined) {
      const keys = Object.keys(outputs);
      return textAnswer(keys.length === 1 ? spoken(own(outputs, keys[0] as string)) : spoken(outputs));
    }
    if (Object.prototype.hasOwnProperty.call(outputs, settings.output)) return textAnswer(spoken(outputs[settings.output]));
    const names = Object.keys(outputs).join(', ') || '—';
    if (!warned) {
      warned = true;
      const said = problem('service.noOutput', { platform, output: settings.output, outputs: names });
      context.log.warn(serviceEnglish(said), said);
    }
    return textAnswer(context.say('voice.service.noOutput', { output: settings.output, outputs: names }));
  };
  return [{ tool, call }];
}

/** `GET /info`: the app's mode, name and description; a Dify without it (404) is asked by the settings' `app`. */
async function appInfo(settings: DifySettings, auth: Record<string, string>, context: ServiceContext) {
  const answer = await context.http.raw(
    { method: 'GET', url: joinUrl(settings.baseUrl, '/info'), headers: auth },
    { timeoutMs: context.timeoutMs },
  );
  if (answer.status === 404) return { name: '', description: '' };
  if (answer.status < 200 || answer.status > 299) throw new ServiceError(httpProblem(context.http.platform, answer));
  const json = isRecord(answer.json) ? answer.json : {};
  const modes: DifyMode[] = ['workflow', 'chat', 'advanced-chat', 'agent-chat', 'completion'];
  const mode = modes.find((m) => m === json.mode);
  return {
    name: typeof json.name === 'string' ? json.name.trim() : '',
    description: typeof json.description === 'string' ? json.description.trim() : '',
    ...(mode ? { mode } : {}),
  };
}

/** A tool name from the app's name (`Forecast details` → forecast_details), else from its mode (dify_workflow). */
function toolNameOf(name: string, mode: DifyMode): string {
  const ascii = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return ascii || `dify_${mode.replace('-', '_')}`;
}

/**
 * The output named in the settings, checked against the outputs of the workflow's last successful run
 * (`GET /workflows/logs`, then `GET /workflows/run/<id>`): the service API lists no outputs otherwise.
 * A name that is not among them is warned of now, not found out at a call. Nothing is said when
 * the workflow never ran or the platform does not answer.
 */
async function warnOfOutput(settings: DifySettings, auth: Record<string, string>, context: ServiceContext): Promise<void> {
  const options = { timeoutMs: context.timeoutMs };
  try {
    const logs = await context.http.sendJson(
      { method: 'GET', url: joinUrl(settings.baseUrl, '/workflows/logs?status=succeeded&limit=1'), headers: auth },
      options,
    );
    const latest = isRecord(logs) && Array.isArray(logs.data) ? logs.data[logs.data.length - 1] : undefined;
    const runId = isRecord(latest) && isRecord(latest.workflow_run) ? latest.workflow_run.id : undefined;
    if (typeof runId !== 'string') return;
    const run = await context.http.sendJson(
      { method: 'GET', url: joinUrl(settings.baseUrl, `/workflows/run/${encodeURIComponent(runId)}`), headers: auth },
      options,
    );
    const outputs = isRecord(run) && isRecord(run.outputs) ? Object.keys(run.outputs) : [];
    if (outputs.length === 0 || outputs.includes(settings.output as string)) return;
    const said = problem('service.noOutput', {
      platform: context.http.platform,
      output: settings.output as string,
      outputs: outputs.join(', '),
    });
    context.log.warn(serviceEnglish(said), said);
  } catch {
    // Only a warning's source: the workflow is served either way.
  }
}

/** A run's outputs; a run that did not succeed is a failure with Dify's reason; one paused for a person is said. */
function runOutputs(data: Node, platform: string, context: ServiceContext): Record<string, unknown> | string {
  if (data.status === 'succeeded') return isRecord(data.outputs) ? data.outputs : {};
  if (data.status === 'paused') return context.say('voice.service.needsApp', { platform, node: 'Human Input' });
  const message = typeof data.error === 'string' && data.error ? speakable(data.error) : spoken(data.status);
  throw new ServiceError(problem('service.runFailed', { platform, message }));
}

/** An `error` event of a stream: Dify's `{status, code, message}`, as an HTTP refusal would be said. */
function streamError(event: Node, platform: string): ServiceError {
  const status = typeof event.status === 'number' ? event.status : 500;
  const message = typeof event.message === 'string' && event.message ? speakable(event.message) : 'no details were given';
  return new ServiceError(problem('service.http', { platform, status, message }));
}

/** A streamed workflow run: its `workflow_finished` event's data. */
function streamedRun(text: string, platform: string): Node | undefined {
  let finished: Node | undefined;
  for (const event of streamEvents(text)) {
    const json = eventJson(event);
    if (!isRecord(json)) continue;
    if (json.event === 'error') throw streamError(json, platform);
    if (json.event === 'workflow_finished' && isRecord(json.data)) finished = json.data;
  }
  return finished;
}

/** A streamed answer: its `message`/`agent_message` chunks joined (a `message_replace` replaces them). */
function streamedAnswer(text: string, platform: string): string {
  let answer = '';
  for (const event of streamEvents(text)) {
    const json = eventJson(event);
    if (!isRecord(json)) continue;
    if (json.event === 'error') throw streamError(json, platform);
    if ((json.event === 'message' || json.event === 'agent_message') && typeof json.answer === 'string') answer += json.answer;
    if (json.event === 'message_replace' && typeof json.answer === 'string') answer = json.answer;
  }
  return answer;
}

const FORM_TYPES: Record<string, object> = {
  'text-input': { type: 'string' },
  paragraph: { type: 'string' },
  select: { type: 'string' },
  number: { type: 'number' },
  checkbox: { type: 'boolean' },
  json_object: { type: 'object' },
};

/** The tool's arguments from the app's `user_input_form` (files cannot be spoken, so they are left out). */
export function difySchema(parameters: unknown, chat: boolean, say: ServiceContext['say']): Tool['inputSchema'] {
  const form = isRecord(parameters) && Array.isArray(parameters.user_input_form) ? parameters.user_input_form.slice(0, MAX_INPUTS) : [];
  // Keyed by the app's variable names: no prototype.
  const properties = nameRecord<object>();
  const required: string[] = [];
  for (const item of form) {
    if (!isRecord(item)) continue;
    const [kind, field] = Object.entries(item)[0] ?? [];
    const base = kind !== undefined ? own(FORM_TYPES, kind) : undefined;
    if (!base || !isRecord(field) || typeof field.variable !== 'string' || !field.variable) continue;
    const options = Array.isArray(field.options) ? field.options.filter((o): o is string => typeof o === 'string') : [];
    properties[field.variable] = {
      ...base,
      ...(typeof field.label === 'string' && field.label ? { description: field.label } : {}),
      ...(kind === 'select' && options.length > 0 ? { enum: options } : {}),
      ...(typeof field.max_length === 'number' && field.max_length > 0 && base === FORM_TYPES['text-input']
        ? { maxLength: field.max_length }
        : {}),
    };
    if (field.required === true) required.push(field.variable);
  }
  if (chat) {
    properties.query = { type: 'string', description: say('voice.service.difyQuery') };
    required.unshift('query');
  }
  return { type: 'object', properties: { ...properties }, ...(required.length > 0 ? { required } : {}) };
}
