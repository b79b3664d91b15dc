import { describe, expect, it } from 'vitest';

import { COZE_WORKFLOWS, DIFY_KEYS, SECRETS } from '../../../helpers/service-stand-ins';
import { serviceRuns } from './service-harness';

/**
 * The words our own web service tools bring to the model (a default description, an argument's
 * description) follow the voice language, as the answers do: a user configuring from the README in
 * Chinese had the model read "Starts the n8n workflow." beside Chinese argument hints.
 */
const serve = serviceRuns();
const entries = (base: string) => [
  { name: 'n8n', transport: 'n8n', url: `${base}/n8n/webhook/quiet`, tool: 'n8n_quiet' },
  {
    name: 'coze',
    transport: 'coze',
    baseUrl: `${base}/coze`,
    token: SECRETS.coze,
    workflows: [{ id: COZE_WORKFLOWS.asks, tool: 'coze_asks' }],
  },
  { name: 'home', transport: 'home-assistant', baseUrl: `${base}/ha`, token: SECRETS.ha, services: ['light.turn_on'], states: true },
  { name: 'dify', transport: 'dify', baseUrl: `${base}/dify/v1`, apiKey: DIFY_KEYS.agent, tool: 'travel' },
];

describe('default descriptions of web service tools', () => {
  it('are in Chinese when the voice language is Chinese', async () => {
    const run = await serve(entries, { ui: { language: 'zh-CN' } });
    const tools = new Map((await run.session.listAllTools()).tools.map((t) => [t.name, t]));
    const described = (name: string, property?: string) => {
      const tool = tools.get(name) as unknown as {
        description?: string;
        inputSchema: { properties: Record<string, { description?: string }> };
      };
      return property ? tool.inputSchema.properties[property]?.description : tool.description;
    };
    expect(described('n8n_quiet')).toBe('运行 n8n 工作流。');
    expect(described('coze_asks')).toBe(`运行 Coze 工作流 ${COZE_WORKFLOWS.asks}。`);
    expect(described('get_state')).toBe('说出家里某个设备或传感器的当前状态（开关、温度等），按名称或实体 ID 查找。');
    expect(described('get_state', 'entity')).toBe('设备或传感器的名称，或它的实体 ID（如 sensor.living_room）');
    expect(described('light_turn_on', 'entity_id')).toBe('要操作的设备：它的实体 ID（如 light.living_room）或名称');
    expect(described('travel', 'query')).toBe('要发送的消息');
  });

  it('stay in English in English', async () => {
    const run = await serve(entries, { ui: { language: 'en' } });
    const tools = (await run.session.listAllTools()).tools;
    const n8n = tools.find((t) => t.name === 'n8n_quiet') as { description?: string };
    expect(n8n.description).toBe('Starts the n8n workflow.');
  });
});
