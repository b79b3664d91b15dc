// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor as waitForUi } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceEditor } from '../../src/renderer/pages/service-editor';
import type { ServiceKind } from '../../src/shared/service-settings';
import { FakeXiaozhi, type FakeSession } from '../helpers/fake-xiaozhi';
import { makeBridge, patientConnection, type Harness } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { COZE_WORKFLOW, SECRETS, ServiceStandIns } from '../helpers/service-stand-ins';
import { waitFor } from '../helpers/wait';

let harness: Harness;
let standIns: ServiceStandIns;
let xiaozhi: FakeXiaozhi;

beforeEach(async () => {
  standIns = await ServiceStandIns.start();
  xiaozhi = await FakeXiaozhi.start();
  harness = makeBridge({ connection: patientConnection, endpoints: [{ id: 'e1', name: 'home', url: xiaozhi.url() }] });
  harness.bridge.start();
});

afterEach(async () => {
  cleanup();
  await harness.bridge.stop();
  await xiaozhi.close();
  await standIns.close();
});

/** Fills the dialog of `kind` field by field (labels as the user reads them) and saves it. */
async function addFromWindow(kind: ServiceKind, fields: Record<string, string>, language: 'en' | 'zh-CN', save: string) {
  const onClose = vi.fn();
  await renderWithBridge(harness, <ServiceEditor kind={kind} existingNames={[]} onClose={onClose} />, language);
  for (const [label, value] of Object.entries(fields)) fireEvent.change(screen.getByLabelText(label), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: save }));
  await waitForUi(() => expect(onClose).toHaveBeenCalled());
  cleanup();
}

let id = 10;
async function callByVoice(session: FakeSession, name: string, args: Record<string, unknown>): Promise<string> {
  const response = await session.request(id++, 'tools/call', { name, arguments: args });
  return String(response.result?.content?.[0]?.text ?? '');
}

describe('adding a web service from the window', () => {
  it('adds a Dify workflow, a Coze workflow, an n8n webhook, an OpenAPI operation and a Home Assistant service, each then called by xiaozhi', async () => {
    const base = standIns.base;
    await addFromWindow(
      'dify',
      { 名称: 'dify', '地址（基础 URL）': `${base}/dify/v1`, 'API 密钥': SECRETS.dify, 工具名称: 'dify_forecast' },
      'zh-CN',
      '保存',
    );
    await addFromWindow(
      'coze',
      {
        Name: 'coze',
        Token: SECRETS.coze,
        'Workflow id': COZE_WORKFLOW,
        'Tool name': 'coze_weather',
        'Arguments (one a line: name, or name: description)': 'city: the city',
      },
      'en',
      'Save',
    );
    await addFromWindow(
      'n8n',
      {
        名称: 'n8n',
        '地址（URL）': `${base}/n8n/webhook/lights`,
        请求头名称: 'X-N8N-Key',
        请求头的值: SECRETS.n8n,
        工具名称: 'set_lights',
        '参数（每行一个：名称，或 名称: 说明）': 'room\nstate: on or off',
      },
      'zh-CN',
      '保存',
    );
    await addFromWindow(
      'openapi',
      {
        Name: 'pets',
        'OpenAPI document (URL or file)': `${base}/api/openapi.yaml`,
        'Operations (operationId, one a line; empty: all)': 'getPetById',
        'Security scheme': 'api_key',
        'Key or token': SECRETS.petstore,
      },
      'en',
      'Save',
    );
    await addFromWindow(
      'home-assistant',
      { Name: 'home', 'Address (base URL)': `${base}/ha`, Token: SECRETS.ha, 'Actions (one a line, e.g. light.turn_on)': 'light.turn_on' },
      'en',
      'Save',
    );
    // Coze's site is the cloud's by default: the stand-in stands for another deployment of the same API.
    const saved = harness.store.load().servers;
    expect(saved.map((s) => s.transport)).toEqual(['dify', 'coze', 'n8n', 'openapi', 'home-assistant']);
    const coze = saved[1];
    if (coze?.transport !== 'coze') throw new Error('expected the Coze entry');
    expect(coze).toMatchObject({
      site: 'coze.cn',
      token: SECRETS.coze,
      workflows: [{ id: COZE_WORKFLOW, tool: 'coze_weather', inputs: [{ name: 'city', description: 'the city' }] }],
    });
    await harness.bridge.api.updateServer({ name: 'coze', server: { ...coze, baseUrl: `${base}/coze` } });

    await waitFor(() => harness.bridge.state().servers.filter((s) => s.state === 'running').length === 5, 15_000, 'every service to run');
    const session = await xiaozhi.connection(0);
    await session.initialize();
    expect(await callByVoice(session, 'dify_forecast', { city: '北京' })).toBe('It will rain in 北京');
    expect(await callByVoice(session, 'coze_weather', { city: 'Beijing' })).toBe('Sunny and 23 degrees in Beijing');
    expect(await callByVoice(session, 'set_lights', { room: 'kitchen', state: 'on' })).toBe('{"reply":"Turned the kitchen lights on"}');
    expect(await callByVoice(session, 'getPetById', { petId: 1 })).toBe('{"id":1,"name":"Rex","kind":"dog"}');
    expect(await callByVoice(session, 'light_turn_on', { entity_id: 'light.kitchen' })).toBe('Done. Kitchen light: on');
  });

  it('marks what is missing and saves nothing until it is there, in Chinese', async () => {
    const onClose = vi.fn();
    await renderWithBridge(harness, <ServiceEditor kind="coze" existingNames={[]} onClose={onClose} />, 'zh-CN');
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: 'coze' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('有些值缺失或无效，已在上方标出。')).toBeTruthy();
    // Each field says why, in Chinese (not only "请检查此项。").
    expect(screen.getByText('请粘贴令牌，不能为空。')).toBeTruthy();
    expect(screen.getByText('工作流 ID 是工作流页面地址中的数字（workflow_id=…）。')).toBeTruthy();
    expect(screen.queryByText('请检查此项。')).toBeNull();
    fireEvent.change(screen.getByLabelText('工具名称'), { target: { value: '天气' } });
    expect(await screen.findByText(/只能用英文字母、数字、_ 或 -（不能有空格或中文）/)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(harness.store.load().servers).toEqual([]);
  });

  it('says on the field, in Chinese, that a hidden header value must be typed again when its header is renamed', async () => {
    await harness.bridge.api.addServer({
      name: 'flow',
      transport: 'n8n',
      url: `${standIns.base}/webhook/a`,
      method: 'POST',
      headers: { 'X-Key': 'n8n-secret-value-123', 'X-Other': 'o' },
      tool: 'flow',
      description: '',
      inputs: [],
      enabled: true,
    });
    const onClose = vi.fn();
    const settings = (await harness.bridge.api.getSettings()).servers[0];
    if (settings?.transport !== 'n8n') throw new Error('expected n8n');
    await renderWithBridge(harness, <ServiceEditor kind="n8n" service={settings} existingNames={['flow']} onClose={onClose} />, 'zh-CN');
    fireEvent.change(screen.getByLabelText('请求头名称'), { target: { value: 'X-Auth' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('此值已隐藏，且属于原来的名称：请重新输入它的值。')).toBeTruthy();
    // The second header the dialog cannot show is said to be kept.
    expect(screen.getByText(/另有 1 个，保持不变/)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(harness.store.load().servers[0]).toMatchObject({ headers: { 'X-Key': 'n8n-secret-value-123', 'X-Other': 'o' } });
  });

  it('edits a service with its token masked and keeps the real token', async () => {
    await harness.bridge.api.addServer({
      name: 'home',
      transport: 'home-assistant',
      baseUrl: `${standIns.base}/ha`,
      token: SECRETS.ha,
      services: [],
      states: true,
      enabled: true,
    });
    const onClose = vi.fn();
    const settings = (await harness.bridge.api.getSettings()).servers[0];
    if (settings?.transport !== 'home-assistant') throw new Error('expected Home Assistant');
    expect(settings.token).not.toContain(SECRETS.ha);
    await renderWithBridge(harness, <ServiceEditor kind="home-assistant" service={settings} existingNames={['home']} onClose={onClose} />);
    fireEvent.change(screen.getByLabelText('Actions (one a line, e.g. light.turn_on)'), { target: { value: 'light.turn_on' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitForUi(() => expect(onClose).toHaveBeenCalled());
    expect(harness.store.load().servers[0]).toMatchObject({ token: SECRETS.ha, services: ['light.turn_on'] });
  });
});
