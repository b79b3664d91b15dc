import { cutAfter, eventStream, json, record, sleep, type StandInRequest } from './stand-in-http';

/**
 * Dify's service API as it answers, written from langgenius/dify:
 * - api/controllers/service_api/app/app.py: `GET /info` → `{name, description, tags, mode, author_name}`
 *   (`mode`: workflow, chat, advanced-chat, agent-chat, completion); `GET /parameters` → `user_input_form`.
 * - api/controllers/service_api/app/workflow.py: `POST /workflows/run` only for a workflow app (else
 *   `NotWorkflowAppError`); `GET /workflows/run/<id>` (the run: status, outputs, error); `GET /workflows/logs`.
 * - api/controllers/service_api/app/completion.py: `POST /chat-messages` for chat, agent-chat and
 *   advanced-chat apps (else `NotChatAppError`), blocking or streaming by `response_mode`.
 * - api/core/app/apps/agent_chat/app_generator.py: an agent app asked in blocking mode raises
 *   "Agent Chat App does not support blocking mode", answered 400 `invalid_param`.
 * - api/controllers/service_api/app/error.py: errors are `{code, message, status}`.
 * - web/app/components/develop/template/template_workflow.en.mdx and template_chat.en.mdx: the blocking
 *   answer `{workflow_run_id, task_id, data: {id, workflow_id, status, outputs, error, elapsed_time,
 *   total_tokens, total_steps, created_at, finished_at}}`, `status` one of running, succeeded, failed,
 *   stopped (paused for human input); the streaming answer `data: {...}\n\n` events (workflow_started,
 *   node_started, text_chunk, node_finished, workflow_finished; message / agent_message, agent_thought,
 *   message_end; error; ping every 10 s); "Due to Cloudflare restrictions, the request will be
 *   interrupted without a return after 100 seconds" (blocking mode on Dify Cloud).
 */

export interface DifyApp {
  key: string;
  mode: 'workflow' | 'chat' | 'advanced-chat' | 'agent-chat';
  name: string;
  description: string;
  form: unknown[];
  /** How long a run takes (ms). */
  runMs?: number;
  /** Outputs of a successful run, from its inputs. */
  outputs?: (inputs: Record<string, unknown>) => Record<string, unknown>;
  /** A run fails with this error for these inputs. */
  fails?: (inputs: Record<string, unknown>) => string | undefined;
  answer?: (query: string) => string;
}

export const DIFY_KEYS = {
  workflow: 'app-DIFY-SECRET-0123456789abcdef',
  agent: 'app-DIFY-AGENT-0123456789abcdef',
  chat: 'app-DIFY-CHAT-0123456789abcdef',
  slow: 'app-DIFY-SLOW-0123456789abcdef',
  twoOutputs: 'app-DIFY-TWO-0123456789abcdef',
} as const;

const weatherForm = [
  { 'text-input': { label: 'City', variable: 'city', required: true, default: '', max_length: 48 } },
  { select: { label: 'Unit', variable: 'unit', required: false, options: ['celsius', 'fahrenheit'], default: '' } },
  { file: { label: 'Photo', variable: 'photo', required: false, allowed_file_types: ['image'] } },
];

export class DifyStandIn {
  readonly apps: DifyApp[] = [
    {
      key: DIFY_KEYS.workflow,
      mode: 'workflow',
      name: '天气预报',
      description: '查询城市的天气预报',
      form: weatherForm,
      outputs: (inputs) => ({ text: `It will rain in ${String(inputs.city)}` }),
      fails: (inputs) => (inputs.city === 'Atlantis' ? 'The weather node could not find the city' : undefined),
    },
    {
      key: DIFY_KEYS.twoOutputs,
      mode: 'workflow',
      name: 'Forecast details',
      description: '',
      form: weatherForm,
      outputs: (inputs) => ({ summary: `Rain in ${String(inputs.city)}`, temperature: 12 }),
    },
    {
      key: DIFY_KEYS.slow,
      mode: 'workflow',
      name: 'Long report',
      description: 'Writes a long report',
      form: [{ paragraph: { label: 'Topic', variable: 'topic', required: true } }],
      runMs: 600,
      outputs: (inputs) => ({ report: `A report on ${String(inputs.topic)}` }),
    },
    {
      key: DIFY_KEYS.agent,
      mode: 'agent-chat',
      name: 'Travel agent',
      description: 'Plans trips with its tools',
      form: [],
      answer: (query) => `I planned it: ${query}`,
    },
    {
      key: DIFY_KEYS.chat,
      mode: 'chat',
      name: 'Chat helper',
      description: '',
      form: [],
      answer: (query) => `You said: ${query}`,
    },
  ];

  /** What a proxy in front of Dify waits at most for a blocking answer before it drops the request (Dify Cloud: 100 s). */
  blockingCutMs = 300;
  private readonly runs = new Map<string, { status: string; outputs: Record<string, unknown> | null; error: string | null }>();
  private nextRun = 1;

  handle(req: StandInRequest): void | Promise<void> {
    const { res, path } = req;
    const app = this.apps.find((a) => req.headers.authorization === `Bearer ${a.key}`);
    if (!app) return json(res, 401, { code: 'unauthorized', message: 'Access token is invalid', status: 401 });
    if (path === '/v1/info')
      return json(res, 200, { name: app.name, description: app.description, tags: [], mode: app.mode, author_name: 'Ann' });
    if (path === '/v1/parameters')
      return json(res, 200, { opening_statement: '', user_input_form: app.form, file_upload: { image: { enabled: false } } });
    if (path === '/v1/workflows/logs') {
      const data = [...this.runs]
        .filter(([, r]) => r.status === (req.query.get('status') ?? r.status))
        .slice(-Number(req.query.get('limit') ?? 20));
      return json(res, 200, {
        page: 1,
        limit: data.length,
        total: data.length,
        has_more: false,
        data: data.map(([id, r]) => ({ id: `log-${id}`, workflow_run: { id, status: r.status, error: r.error }, created_at: 1 })),
      });
    }
    const run = /^\/v1\/workflows\/run\/(.+)$/.exec(path);
    if (run && req.method === 'GET') {
      const found = this.runs.get(run[1] as string);
      return found
        ? json(res, 200, { id: run[1], workflow_id: 'wf-1', ...found, total_steps: 3 })
        : json(res, 404, { code: 'not_found', message: 'Workflow run not found', status: 404 });
    }
    if (path === '/v1/workflows/run' && req.method === 'POST') return this.runWorkflow(req, app);
    if (path === '/v1/chat-messages' && req.method === 'POST') return this.chat(req, app);
    return json(res, 404, { code: 'not_found', message: 'Not found', status: 404 });
  }

  private badMode(req: StandInRequest): boolean {
    const mode = record(req.body).response_mode;
    if (mode !== undefined && mode !== 'blocking' && mode !== 'streaming') {
      json(req.res, 400, { code: 'invalid_param', message: "response_mode: The value 'x' is not a valid choice.", status: 400 });
      return true;
    }
    if (typeof record(req.body).user !== 'string') {
      json(req.res, 400, { code: 'invalid_param', message: 'user is required', status: 400 });
      return true;
    }
    return false;
  }

  private async runWorkflow(req: StandInRequest, app: DifyApp): Promise<void> {
    const { res } = req;
    if (app.mode !== 'workflow')
      return json(res, 400, {
        code: 'not_workflow_app',
        message: 'Please check if your app mode matches the right API route.',
        status: 400,
      });
    if (this.badMode(req)) return;
    const body = record(req.body);
    const inputs = record(body.inputs);
    const id = `run-${this.nextRun++}`;
    const error = app.fails?.(inputs);
    const outcome = { status: error ? 'failed' : 'succeeded', outputs: error ? null : (app.outputs?.(inputs) ?? {}), error: error ?? null };
    const data = {
      id,
      workflow_id: 'wf-1',
      ...outcome,
      elapsed_time: 0.3,
      total_tokens: 12,
      total_steps: 3,
      created_at: 1,
      finished_at: 2,
    };
    if (body.response_mode === 'streaming') {
      const stream = eventStream(res);
      stream.write(
        `data: ${JSON.stringify({ event: 'workflow_started', workflow_run_id: id, task_id: 't1', data: { id, workflow_id: 'wf-1', created_at: 1 } })}`,
      );
      stream.write(
        `data: ${JSON.stringify({ event: 'node_started', workflow_run_id: id, task_id: 't1', data: { id: 'n1', node_id: 'start', node_type: 'start', title: 'Start', index: 1 } })}`,
      );
      for (let waited = 0; waited < (app.runMs ?? 0); waited += 100) {
        await sleep(100);
        stream.write('event: ping');
      }
      stream.write(
        `data: ${JSON.stringify({ event: 'node_finished', workflow_run_id: id, task_id: 't1', data: { id: 'n1', node_id: 'start', status: 'succeeded' } })}`,
      );
      stream.write(`data: ${JSON.stringify({ event: 'workflow_finished', workflow_run_id: id, task_id: 't1', data })}`);
      this.runs.set(id, outcome);
      return stream.done();
    }
    if ((app.runMs ?? 0) > this.blockingCutMs) return cutAfter(res, this.blockingCutMs);
    await sleep(app.runMs ?? 0);
    this.runs.set(id, outcome);
    return json(res, 200, { workflow_run_id: id, task_id: 't1', data });
  }

  private async chat(req: StandInRequest, app: DifyApp): Promise<void> {
    const { res } = req;
    if (app.mode === 'workflow')
      return json(res, 400, {
        code: 'not_chat_app',
        message: 'Please check if your Chat app mode matches the right API route.',
        status: 400,
      });
    if (this.badMode(req)) return;
    const body = record(req.body);
    const answer = app.answer?.(String(body.query)) ?? '';
    if (body.response_mode !== 'streaming') {
      if (app.mode === 'agent-chat')
        return json(res, 400, { code: 'invalid_param', message: 'Agent Chat App does not support blocking mode', status: 400 });
      return json(res, 200, {
        event: 'message',
        task_id: 't1',
        id: 'm1',
        message_id: 'm1',
        conversation_id: 'c1',
        mode: 'chat',
        answer,
        metadata: {},
        created_at: 1,
      });
    }
    const stream = eventStream(res);
    const base = { task_id: 't1', message_id: 'm1', conversation_id: 'c1', created_at: 1 };
    const chunk = app.mode === 'agent-chat' ? 'agent_message' : 'message';
    if (app.mode === 'agent-chat')
      stream.write(
        `data: ${JSON.stringify({ event: 'agent_thought', ...base, id: 'th1', position: 1, thought: 'Looking up trains', observation: '', tool: 'trains', tool_input: '{}' })}`,
      );
    const half = Math.ceil(answer.length / 2);
    for (const part of [answer.slice(0, half), answer.slice(half)])
      stream.write(`data: ${JSON.stringify({ event: chunk, ...base, answer: part })}`);
    stream.write(`data: ${JSON.stringify({ event: 'message_end', ...base, id: 'm1', metadata: { usage: { total_tokens: 20 } } })}`);
    stream.done();
  }
}
