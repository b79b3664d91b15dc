import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { problem } from '../../../shared/problem';
import type { DifySettingsSchema } from '../../../shared/settings';
import { isRecord } from '../../../shared/is-record';
import { joinUrl, speakable, spoken } from './service-http';
import { ServiceError } from './service-problems';
import { textAnswer, type ServiceContext, type ServiceTool } from './service-tools';
import { nameRecord, own } from '../../../shared/own';

type DifySettings = z.output<typeof DifySettingsSchema>;

/** Inputs per app: Dify's forms are short; a longer list is cut. */
const MAX_INPUTS = 50;

/**
 * A Dify app as one tool (docs.dify.ai API reference): its inputs read from `GET /parameters`
 * (`user_input_form`: `text-input`, `paragraph`, `select`, `number`, `checkbox`… each with
 * `variable`, `label`, `required`); a workflow app run with `POST /workflows/run`, a chat app
 * with `POST /chat-messages` (plus `query`, the message), both in blocking mode with a `user`.
 */
export async function difyTools(settings: DifySettings, context: ServiceContext): Promise<ServiceTool[]> {
  const auth = { authorization: `Bearer ${settings.apiKey}` };
  const parameters = await context.http.sendJson(
    { method: 'GET', url: joinUrl(settings.baseUrl, '/parameters'), headers: auth },
    { timeoutMs: context.timeoutMs },
  );
  const inputSchema = difySchema(parameters, settings.app === 'chat');
  const platform = context.http.platform;
  const tool: Tool = {
    name: settings.tool,
    description: settings.description || `Runs the Dify ${settings.app === 'chat' ? 'chat app' : 'workflow'}.`,
    inputSchema,
  };
  return [
    {
      tool,
      call: async (args, options) => {
        const { query, ...inputs } = args;
        const user = 'xiaozhi-tray';
        if (settings.app === 'chat') {
          const json = await context.http.sendJson(
            {
              method: 'POST',
              url: joinUrl(settings.baseUrl, '/chat-messages'),
              headers: auth,
              body: { inputs, query: spoken(query), response_mode: 'blocking', user },
            },
            options,
          );
          return textAnswer(isRecord(json) ? spoken(json.answer) : '');
        }
        const json = await context.http.sendJson(
          {
            method: 'POST',
            url: joinUrl(settings.baseUrl, '/workflows/run'),
            headers: auth,
            body: { inputs: args, response_mode: 'blocking', user },
          },
          options,
        );
        return textAnswer(workflowOutput(json, settings.output, platform));
      },
    },
  ];
}

/** A blocking run's `data`: a run that did not succeed is the platform's refusal, with its `error`. */
function workflowOutput(json: unknown, output: string | undefined, platform: string): string {
  const data = isRecord(json) && isRecord(json.data) ? json.data : undefined;
  if (!data) throw new ServiceError(problem('service.notJson', { platform, status: 200 }));
  if (data.status !== 'succeeded') {
    const message = typeof data.error === 'string' && data.error ? speakable(data.error) : `the run ended ${spoken(data.status)}`;
    throw new ServiceError(problem('service.refused', { platform, code: spoken(data.status), message }));
  }
  const outputs = isRecord(data.outputs) ? data.outputs : {};
  if (output !== undefined) return spoken(own(outputs, output));
  const keys = Object.keys(outputs);
  return keys.length === 1 ? spoken(own(outputs, keys[0] as string)) : spoken(outputs);
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
export function difySchema(parameters: unknown, chat: boolean): Tool['inputSchema'] {
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
    };
    if (field.required === true) required.push(field.variable);
  }
  if (chat) {
    properties.query = { type: 'string', description: 'The message to send' };
    required.unshift('query');
  }
  return { type: 'object', properties: { ...properties }, ...(required.length > 0 ? { required } : {}) };
}
