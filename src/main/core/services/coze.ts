import type { z } from 'zod';
import { problem } from '../../../shared/problem';
import { COZE_SITES } from '../../../shared/service-settings';
import type { CozeSettingsSchema } from '../../../shared/settings';
import { isRecord } from '../../../shared/is-record';
import { joinUrl, speakable, spoken } from './service-http';
import { ServiceError } from './service-problems';
import { inputsSchema, textAnswer, type ServiceContext, type ServiceTool } from './service-tools';

type CozeSettings = z.output<typeof CozeSettingsSchema>;

/**
 * Coze workflows, one tool each: `POST /v1/workflow/run` with the personal access token as a
 * Bearer header and `{ workflow_id, parameters }`; the answer is `{ code, msg, data }`, `code` 0 for
 * success and `data` the workflow's output as a JSON string (coze.cn developer guide, "执行工作流"
 * workflow_run; the same API on api.coze.com).
 */
export function cozeTools(settings: CozeSettings, context: ServiceContext): ServiceTool[] {
  const base = settings.baseUrl ?? COZE_SITES[settings.site];
  return settings.workflows.map((workflow) => ({
    tool: {
      name: workflow.tool,
      description: workflow.description || `Runs the Coze workflow ${workflow.id}.`,
      inputSchema: inputsSchema(workflow.inputs),
    },
    call: async (args, options) => {
      const json = await context.http.sendJson(
        {
          method: 'POST',
          url: joinUrl(base, '/v1/workflow/run'),
          headers: { authorization: `Bearer ${settings.token}` },
          body: { workflow_id: workflow.id, parameters: args },
        },
        options,
      );
      return textAnswer(cozeOutput(json, context.http.platform));
    },
  }));
}

/** What a run answered, as text: `data` decoded (an `output` field alone when that is all it holds); a non-zero code is a refusal. */
export function cozeOutput(json: unknown, platform: string): string {
  if (!isRecord(json)) throw new ServiceError(problem('service.notJson', { platform, status: 200 }));
  if (json.code !== 0 && json.code !== undefined)
    throw new ServiceError(
      problem('service.refused', {
        platform,
        code: spoken(json.code),
        message: typeof json.msg === 'string' && json.msg ? speakable(json.msg) : 'no details were given',
      }),
    );
  let data: unknown = json.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data) as unknown;
    } catch {
      return data as string;
    }
  }
  if (isRecord(data) && Object.keys(data).length === 1 && 'output' in data) return spoken(data.output);
  return spoken(data);
}
