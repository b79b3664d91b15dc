import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import { isRecord } from '../../../shared/is-record';
import { nameRecord } from '../../../shared/own';
import { problem } from '../../../shared/problem';
import { COZE_SITES } from '../../../shared/service-settings';
import type { CozeSettingsSchema } from '../../../shared/settings';
import { eventJson, streamEvents } from './event-stream';
import { clipped, joinUrl, type RequestOptions, spoken } from './service-http';
import { ServiceError } from './service-problems';
import { inputsSchema, type ServiceContext, type ServiceTool, textAnswer } from './service-tools';

type CozeSettings = z.output<typeof CozeSettingsSchema>;
type Node = Record<string, unknown>;

/**
 * "若 API 在 90 秒内未收到响应，将因超时而断开连接" (Coze's 执行工作流 page): a call that may last
 * longer than this runs with the streaming endpoint, which keeps the connection alive.
 */
const BLOCKING_LIMIT_MS = 90_000;
/** How long a question a workflow asked may still be answered (Coze keeps the run; a voice forgets sooner). */
const QUESTION_KEPT_MS = 10 * 60_000;
/** Interrupt types a spoken answer can resume: 2 a question node, 5 an input node (1 device plugin, 7 OAuth plugin need the app). */
const ANSWERABLE = new Set([2, 5]);

/** A workflow stopped for an answer: what resuming it needs. */
interface Question {
  eventId: string;
  type: number;
  at: number;
}

/** How a run ended: its output as text, or a stop for a question (or for something only the Coze app can give). */
type Outcome = { output: string } | { question: string; node: string; eventId: string; type: number };

/**
 * Coze workflows, one tool each (Coze's developer guide: 执行工作流 workflow_run, 执行工作流（流式响应）
 * workflow_stream_run, 恢复运行工作流 resume_workflow): the personal access token as a Bearer header,
 * `{workflow_id, parameters}`; `POST /v1/workflow/run` answers `{code, msg, data}` (`data` the
 * output as a JSON string) or, stopped at a question node, `interrupt_data`; a call that may outlast
 * the 90 s a blocking call is given uses `POST /v1/workflow/stream_run` (Message, Interrupt, Error,
 * Done events). A question is said with how to answer it: the tool called again with `answer`
 * resumes the run (`/v1/workflows/resume`, `/v1/workflow/stream_resume`).
 */
export async function cozeTools(settings: CozeSettings, context: ServiceContext): Promise<ServiceTool[]> {
  const base = settings.baseUrl ?? COZE_SITES[settings.site];
  const platform = context.http.platform;
  const headers = { authorization: `Bearer ${settings.token}` };
  const tools: ServiceTool[] = [];
  for (const workflow of settings.workflows) {
    // What the settings leave out (its description, its inputs) is read from Coze, where the token may.
    const info = workflow.description && workflow.inputs.length > 0 ? undefined : await workflowInfo(base, headers, workflow.id, context);
    const inputs = workflow.inputs.length > 0 ? inputsSchema(workflow.inputs) : (info?.inputs ?? inputsSchema([]));
    // The reply to a question, unless the workflow has an input of that name.
    const answerName = Object.prototype.hasOwnProperty.call(inputs.properties ?? {}, 'answer') ? 'coze_answer' : 'answer';
    const schema = inputs;
    const tool: Tool = {
      name: workflow.tool,
      description: workflow.description || info?.description || context.say('voice.service.cozeDescription', { id: workflow.id }),
      inputSchema: {
        ...schema,
        properties: { ...schema.properties, [answerName]: { type: 'string', description: context.say('voice.service.answerArgument') } },
      },
    };
    let asked: Question | undefined;
    const call = async (args: Record<string, unknown>, options: RequestOptions) => {
      const { [answerName]: answer, ...parameters } = args;
      const stream = options.timeoutMs > BLOCKING_LIMIT_MS;
      const pending = asked && Date.now() - asked.at < QUESTION_KEPT_MS ? asked : undefined;
      const send = async (path: string, body: Node): Promise<Outcome> => {
        if (!stream)
          return blockingOutcome(
            await context.http.sendJson({ method: 'POST', url: joinUrl(base, path), headers, body }, options),
            platform,
          );
        const answer = await context.http.send(
          { method: 'POST', url: joinUrl(base, path), headers: { ...headers, accept: 'text/event-stream' }, body },
          options,
        );
        // A refusal before the run starts (a token, a workflow not published) is JSON, not a stream.
        return answer.json !== undefined ? blockingOutcome(answer.json, platform) : streamedOutcome(answer.text, platform);
      };
      let outcome: Outcome;
      if (answer !== undefined && pending) {
        asked = undefined;
        outcome = await send(stream ? '/v1/workflow/stream_resume' : '/v1/workflows/resume', {
          workflow_id: workflow.id,
          event_id: pending.eventId,
          resume_data: spoken(answer),
          interrupt_type: pending.type,
        });
      } else outcome = await send(stream ? '/v1/workflow/stream_run' : '/v1/workflow/run', { workflow_id: workflow.id, parameters });
      if ('output' in outcome) return textAnswer(outcome.output);
      if (!ANSWERABLE.has(outcome.type))
        return textAnswer(context.say('voice.service.needsApp', { platform, node: outcome.node || outcome.question }));
      asked = { eventId: outcome.eventId, type: outcome.type, at: Date.now() };
      return textAnswer(context.say('voice.service.asks', { platform, question: outcome.question, tool: workflow.tool }));
    };
    tools.push({ tool, call });
  }
  return tools;
}

/** Coze's parameter types that can be spoken, as JSON Schema types (files and images cannot). */
const SPOKEN_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

/**
 * A workflow's name, description and start node's inputs (`GET /v1/workflows/<id>?include_input_output=true`,
 * 查询工作流基本信息): what a workflow configured by its id alone is served as. Nothing when the token may
 * not read it (the getMetaData permission) or Coze does not answer: the workflow is served as configured.
 */
async function workflowInfo(
  base: string,
  headers: Record<string, string>,
  id: string,
  context: ServiceContext,
): Promise<{ description?: string; inputs?: Tool['inputSchema'] } | undefined> {
  try {
    const json = await context.http.sendJson(
      { method: 'GET', url: joinUrl(base, `/v1/workflows/${encodeURIComponent(id)}?include_input_output=true`), headers },
      { timeoutMs: context.timeoutMs },
    );
    if (!isRecord(json) || json.code !== 0 || !isRecord(json.data)) return undefined;
    const detail = isRecord(json.data.workflow_detail) ? json.data.workflow_detail : {};
    const said = [detail.workflow_name, detail.description].filter((s): s is string => typeof s === 'string' && s.trim() !== '');
    const parameters = isRecord(json.data.input) && isRecord(json.data.input.parameters) ? json.data.input.parameters : undefined;
    let inputs: Tool['inputSchema'] | undefined;
    if (parameters) {
      // Keyed by the workflow's parameter names: no prototype.
      const properties = nameRecord<object>();
      const required: string[] = [];
      for (const [name, spec] of Object.entries(parameters).slice(0, 50)) {
        if (!isRecord(spec) || !SPOKEN_TYPES.has(String(spec.type))) continue;
        properties[name] = {
          type: spec.type,
          ...(typeof spec.description === 'string' && spec.description ? { description: spec.description } : {}),
        };
        if (spec.required === true) required.push(name);
      }
      inputs = { type: 'object', properties: { ...properties }, ...(required.length > 0 ? { required } : {}) };
    }
    return { ...(said.length > 0 ? { description: said.join(': ') } : {}), ...(inputs ? { inputs } : {}) };
  } catch {
    return undefined;
  }
}

/** A refusal (`code` not 0), said with Coze's whole message (its second sentence is often the way out). */
function refusal(code: unknown, message: unknown, platform: string): ServiceError {
  const said = typeof message === 'string' && message.trim() ? clipped(message) : 'no details were given';
  return new ServiceError(problem('service.refused', { platform, code: spoken(code), message: said }));
}

/** A blocking run's (or resume's) answer: its output, or the question it stopped at. */
function blockingOutcome(json: unknown, platform: string): Outcome {
  if (!isRecord(json)) throw new ServiceError(problem('service.notJson', { platform, status: 200 }));
  if (json.code !== 0 && json.code !== undefined) throw refusal(json.code, json.msg, platform);
  const stop = json.interrupt_data;
  if (isRecord(stop) && typeof stop.event_id === 'string') {
    const data = parsed(stop.data);
    const question = isRecord(data) ? spoken(data.content) : spoken(data);
    return { question, node: '', eventId: stop.event_id, type: typeof stop.type === 'number' ? stop.type : 0 };
  }
  return { output: cozeOutput(json.data) };
}

/**
 * A streamed run: the last node's messages (the end node's output, or the question node's question)
 * and how it ended (Done, Interrupt, Error).
 */
function streamedOutcome(text: string, platform: string): Outcome {
  let node: string | undefined;
  let content = '';
  for (const event of streamEvents(text)) {
    const json = eventJson(event);
    if (!isRecord(json)) continue;
    if (event.event === 'Error') throw refusal(json.error_code, json.error_message, platform);
    if (event.event === 'Message') {
      const title = spoken(json.node_title);
      // A new node's messages replace the last one's: the answer is what the last node said.
      if (title !== node) content = '';
      node = title;
      content += spoken(json.content);
    }
    if (event.event === 'Interrupt' && isRecord(json.interrupt_data)) {
      const stop = json.interrupt_data;
      return {
        question: content,
        node: spoken(json.node_title),
        eventId: spoken(stop.event_id),
        type: typeof stop.type === 'number' ? stop.type : 0,
      };
    }
  }
  return { output: cozeOutput(content) };
}

const parsed = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/** A run's output as text: `data` decoded (an `output` field alone when that is all it holds). */
export function cozeOutput(raw: unknown): string {
  const data = parsed(raw);
  if (isRecord(data) && Object.keys(data).length === 1 && 'output' in data) return spoken(data.output);
  return spoken(data);
}
