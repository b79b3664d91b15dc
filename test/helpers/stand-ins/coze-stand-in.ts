import { bearer, cutAfter, eventStream, json, record, sleep, type StandInRequest } from './stand-in-http';

/**
 * Coze's workflow API as it answers, written from its developer guide (docs.coze.cn
 * developer_guides: workflow_run "执行工作流", workflow_stream_run "执行工作流（流式响应）",
 * resume_workflow "恢复运行工作流", coze_error_codes "错误码") and coze-dev/coze-py
 * (cozepy/workflows/runs/__init__.py, the event stream's reader):
 * - `POST /v1/workflow/run` `{workflow_id, parameters}` → `{code, msg, data, debug_url, usage}`,
 *   `data` the end node's output as a JSON string; a workflow stopped at a question node (问答节点)
 *   or an input node answers `interrupt_data: {data: "{\"content_type\":\"text\",\"content\":…}",
 *   type, event_id, required_parameters}` (type 2 a question node, 5 an input node, 1 a device-side
 *   plugin, 7 an OAuth plugin); "若 API 在 90 秒内未收到响应，将因超时而断开连接" (the blocking call is cut at 90 s).
 * - `POST /v1/workflows/resume` `{workflow_id, event_id, resume_data, interrupt_type}` answers as a run does.
 * - `POST /v1/workflow/stream_run` (and `/v1/workflow/stream_resume`): `id: N` / `event: Message|Error|Done|Interrupt|PING` /
 *   `data: {...}` events; Message `{content, node_title, node_seq_id, node_is_finish}` (the end node's
 *   last one carries the output JSON), Interrupt `{interrupt_data: {event_id, type}, node_title}`, Error
 *   `{error_code, error_message}`, Done `{}`.
 * - `GET /v1/workflows/<id>?include_input_output=true` (查询工作流基本信息 get_workflow_info, the token's
 *   getMetaData permission): `data.workflow_detail` (workflow_name, description) and `data.input.parameters`
 *   (`{name: {type, required, description}}`); a token without that permission gets 4101.
 * - Errors: `{code, msg}` (4100 a token refused, 4101 a permission the token lacks, 4200 a workflow not
 *   found or not published, 4314/4315 a run not found or already ended).
 */

export const COZE_WORKFLOWS = {
  weather: '7300000000000000001',
  /** Stops at a question node: which city. */
  asks: '7300000000000000002',
  /** Takes longer than the blocking call is allowed. */
  slow: '7300000000000000003',
  /** Stops at an OAuth plugin (only the Coze app can answer it). */
  plugin: '7300000000000000004',
} as const;

export const COZE_NOT_PUBLISHED =
  'The workflow does not exist or has not been published. Publish it in Coze, then call it again with the workflow ID from its page.';

export class CozeStandIn {
  /** How long a blocking call may wait before the platform drops it (90 s on coze.cn). */
  blockingCutMs = 300;
  /** How long the slow workflow runs. */
  slowMs = 600;
  private readonly pending = new Map<string, { workflow: string; type: number }>();
  private nextEvent = 1;

  /** The token has the getMetaData permission (reading a workflow's name, description and inputs). */
  metadata = true;

  constructor(private readonly token: string) {}

  handle(req: StandInRequest): void | Promise<void> {
    const { res, path } = req;
    if (!bearer(req, this.token)) return json(res, 401, { code: 4100, msg: 'authentication is invalid' });
    const body = record(req.body);
    const info = /^\/v1\/workflows\/(\d+)$/.exec(path);
    if (info && req.method === 'GET') return this.info(req, info[1] as string);
    if (path === '/v1/workflow/run' && req.method === 'POST')
      return this.run(req, String(body.workflow_id), record(body.parameters), false);
    if (path === '/v1/workflow/stream_run' && req.method === 'POST')
      return this.run(req, String(body.workflow_id), record(body.parameters), true);
    if ((path === '/v1/workflows/resume' || path === '/v1/workflow/stream_resume') && req.method === 'POST') {
      const held = this.pending.get(String(body.event_id));
      if (!held || held.workflow !== body.workflow_id) return json(res, 200, { code: 4315, msg: 'execution has ended' });
      this.pending.delete(String(body.event_id));
      return this.answerWeather(req, { city: String(body.resume_data) }, path.includes('stream'));
    }
    return json(res, 404, { code: 4000, msg: 'Not found' });
  }

  private info(req: StandInRequest, workflow: string): void {
    if (!this.metadata) return json(req.res, 200, { code: 4101, msg: 'The token does not have the permission getMetaData' });
    if (workflow !== COZE_WORKFLOWS.weather) return json(req.res, 200, { code: 4200, msg: COZE_NOT_PUBLISHED });
    return json(req.res, 200, {
      code: 0,
      msg: '',
      data: {
        workflow_detail: {
          workflow_id: workflow,
          workflow_name: 'weather_report',
          description: '查询城市的天气',
          app_id: '0',
          created_at: '1',
        },
        input: {
          parameters: {
            city: { type: 'string', required: true, description: '城市名称' },
            days: { type: 'integer', required: false, description: '' },
            photo: { type: 'image', required: false },
          },
        },
        output: { parameters: { output: { type: 'string' } }, terminate_plan: 'return_variables' },
      },
    });
  }

  private async run(req: StandInRequest, workflow: string, parameters: Record<string, unknown>, stream: boolean): Promise<void> {
    const { res } = req;
    if (!Object.values(COZE_WORKFLOWS).includes(workflow as never)) return json(res, 200, { code: 4200, msg: COZE_NOT_PUBLISHED });
    if (workflow === COZE_WORKFLOWS.asks || workflow === COZE_WORKFLOWS.plugin) {
      const eventId = `75694987037${this.nextEvent++}/2691977632`;
      const type = workflow === COZE_WORKFLOWS.asks ? 2 : 7;
      this.pending.set(eventId, { workflow, type });
      const question = type === 2 ? 'Which city do you want the weather for?' : 'Authorize the calendar plugin';
      const node = type === 2 ? '问答' : '日历插件';
      if (stream) {
        const events = eventStream(res);
        events.write(
          `id: 0\nevent: Message\ndata: ${JSON.stringify({ content: question, node_title: node, node_seq_id: '0', node_is_finish: true })}`,
        );
        events.write(`id: 1\nevent: Interrupt\ndata: ${JSON.stringify({ interrupt_data: { event_id: eventId, type }, node_title: node })}`);
        return events.done();
      }
      return json(res, 200, {
        code: 0,
        msg: '',
        data: '',
        debug_url: 'https://www.coze.cn/work_flow?execute_id=1',
        interrupt_data: {
          data: JSON.stringify({ content_type: 'text', content: question }),
          type,
          event_id: eventId,
          ...(type === 2 ? { required_parameters: { city: { type: 'string', required: true } } } : {}),
        },
      });
    }
    if (workflow === COZE_WORKFLOWS.slow) {
      if (!stream && this.slowMs > this.blockingCutMs) return cutAfter(res, this.blockingCutMs);
      const events = eventStream(res);
      for (let waited = 0, id = 0; waited < this.slowMs; waited += 100) {
        await sleep(100);
        events.write(`id: ${id++}\nevent: PING\ndata: {}`);
      }
      events.write(
        `id: 90\nevent: Message\ndata: ${JSON.stringify({ content: JSON.stringify({ output: `A long report on ${String(parameters.topic)}` }), node_title: '', node_seq_id: '0', node_is_finish: true })}`,
      );
      events.write('id: 91\nevent: Done\ndata: {}');
      return events.done();
    }
    return this.answerWeather(req, parameters, stream);
  }

  private answerWeather(req: StandInRequest, parameters: Record<string, unknown>, stream: boolean): void {
    const { res } = req;
    const output = `Sunny and 23 degrees in ${String(parameters.city)}`;
    if (!stream)
      return json(res, 200, {
        code: 0,
        msg: 'Success',
        data: JSON.stringify({ output }),
        debug_url: 'https://www.coze.cn/work_flow?execute_id=1',
        usage: { input_count: 10, output_count: 8, token_count: 18 },
      });
    const events = eventStream(res);
    events.write(
      `id: 0\nevent: Message\ndata: ${JSON.stringify({ content: JSON.stringify({ output }), node_title: '', node_seq_id: '0', node_is_finish: true })}`,
    );
    events.write('id: 1\nevent: Done\ndata: {}');
    events.done();
  }
}
