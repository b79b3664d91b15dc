// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor as waitForUi } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ServiceEditor } from '../../src/renderer/pages/service-editor';
import type { ServiceKind } from '../../src/shared/service-settings';
import { type Harness, makeBridge, patientConnection } from '../helpers/bridge-harness';
import { type FakeSession, FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { renderWithBridge } from '../helpers/render-app';
import { COZE_WORKFLOW, githubLikeDocument, SECRETS, ServiceStandIns } from '../helpers/service-stand-ins';
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
async function addFromWindow(
  kind: ServiceKind,
  fields: Record<string, string>,
  language: 'en' | 'zh-CN',
  save: string,
  then?: () => Promise<void>,
) {
  const onClose = vi.fn();
  await renderWithBridge(harness, <ServiceEditor kind={kind} existingNames={[]} onClose={onClose} />, language);
  for (const [label, value] of Object.entries(fields)) fireEvent.change(screen.getByLabelText(label), { target: { value } });
  await then?.();
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
    // OpenAPI: the document is read, then one operation found by a word of its summary and chosen.
    await addFromWindow(
      'openapi',
      { Name: 'pets', 'OpenAPI document (URL or file)': `${base}/api/openapi.yaml`, 'Key or token': SECRETS.petstore },
      'en',
      'Save',
      async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Read the document' }));
        fireEvent.click(await screen.findByRole('radio', { name: 'Choose which to serve' }));
        expect(screen.getByText('Petstore: 5 operations in 2 groups.')).toBeTruthy();
        fireEvent.change(screen.getByLabelText('Find operations'), { target: { value: 'pet by its id' } });
        fireEvent.click(screen.getByRole('checkbox', { name: /GET \/pets\/\{petId\}/ }));
        expect(screen.getByText('Serves 1 operation.')).toBeTruthy();
        // The document's one security scheme is offered by name.
        fireEvent.change(screen.getByLabelText('Security scheme'), { target: { value: 'api_key' } });
      },
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

  it('chooses from a document as large as GitHub’s by group, in Chinese, with a token in a header: never a list of every operation', async () => {
    standIns.openapi.serveBigDocument(githubLikeDocument());
    const token = 'ghp_WINDOWTOKEN0123456789abcdefABCDEF';
    await addFromWindow(
      'openapi',
      {
        名称: 'github',
        'OpenAPI 文档（网址或文件）': `${standIns.base}/api/github.json`,
        '地址（基础 URL）': `${standIns.base}/gh`,
        请求头名称: 'Authorization',
        请求头的值: `Bearer ${token}`,
      },
      'zh-CN',
      '保存',
      async () => {
        fireEvent.click(screen.getByRole('button', { name: '读取文档' }));
        expect(await screen.findByText('GitHub v3 REST API：1223 个操作，47 个分组。')).toBeTruthy();
        expect(screen.getByText(/操作太多，无法全部提供/)).toBeTruthy();
        expect(screen.queryByRole('radio')).toBeNull();
        // A few dozen groups to tick, and a search: no list of 1,223 checkboxes.
        expect(screen.getAllByRole('checkbox').length).toBe(47);
        fireEvent.change(screen.getByLabelText('筛选分组'), { target: { value: 'iss' } });
        fireEvent.click(screen.getByRole('checkbox', { name: /issues/ }));
        expect(screen.getByText('将提供 26 个操作。')).toBeTruthy();
      },
    );
    const saved = harness.store.load().servers[0];
    expect(saved).toMatchObject({ transport: 'openapi', tags: ['issues'], headers: { Authorization: `Bearer ${token}` } });
    expect(saved && 'operations' in saved ? saved.operations : undefined).toBeUndefined();
    await waitFor(() => harness.bridge.state().servers[0]?.state === 'running', 15_000, 'the document to be read');
    expect(harness.bridge.state().servers[0]?.toolCount).toBe(26);
  });

  it('reads as Chinese before a document is read, and says what a Chinese app name becomes as a tool name', async () => {
    await renderWithBridge(harness, <ServiceEditor kind="openapi" existingNames={[]} onClose={vi.fn()} />, 'zh-CN');
    expect(screen.getByText('文档中的全部操作（最多 100 个）。读取后可选择要提供哪些操作。')).toBeTruthy();
    cleanup();
    await renderWithBridge(harness, <ServiceEditor kind="dify" existingNames={[]} onClose={vi.fn()} />, 'zh-CN');
    expect(screen.getByText('留空：使用 Dify 中应用的名称（名称不是英文时为 dify_workflow 这类名字）。')).toBeTruthy();
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
