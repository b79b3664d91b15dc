import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Harness, logText, makeBridge, patientConnection, startServing, tearDown } from '../../../helpers/bridge-harness';
import type { FakeSession, FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { SECRETS, ServiceStandIns } from '../../../helpers/service-stand-ins';
import { waitFor } from '../../../helpers/wait';
import { serviceEntries } from './service-settings';

/**
 * Web services as tools, through xiaozhi's path (a real WebSocket endpoint) and through the local
 * MCP server, against stand-ins that answer each platform's documented shapes.
 */
let standIns: ServiceStandIns;
let xiaozhi: FakeXiaozhi;
let harness: Harness;
let session: FakeSession;
const TOKEN = 'local-services-token-0123456789abcdef';

beforeEach(async () => {
  standIns = await ServiceStandIns.start();
  ({ xiaozhi, harness, session } = await startServing({
    servers: serviceEntries(standIns.base) as never,
    localServer: { enabled: true, port: 0, token: TOKEN },
  }));
});

afterEach(async () => {
  await tearDown(harness, xiaozhi);
  await standIns.close();
});

let id = 100;
async function call(name: string, args: Record<string, unknown>) {
  const response = await session.request(id++, 'tools/call', { name, arguments: args });
  return { text: String(response.result?.content?.[0]?.text ?? ''), isError: response.result?.isError === true };
}

/** Everything that leaves the engine in words: the log, the history, the state and the settings the window sees. */
async function everythingSaid(): Promise<string> {
  const history = await harness.bridge.api.getHistory();
  const settings = await harness.bridge.api.getSettings();
  return [logText(harness.logBook), JSON.stringify(history), JSON.stringify(harness.bridge.state()), JSON.stringify(settings)].join('\n');
}

describe('web services as tools, called by xiaozhi', () => {
  it('lists every kind beside each other, each running, with schemas from the platforms', async () => {
    const states = harness.bridge.state().servers.map((s) => `${s.name}:${s.transport}:${s.state}`);
    expect(states).toEqual([
      'coze:coze:running',
      'dify:dify:running',
      'n8n:n8n:running',
      'home:home-assistant:running',
      'pets:openapi:running',
      'web:http-api:running',
    ]);
    const { tools } = await session.listAllTools();
    const byName = new Map(tools.map((t) => [t.name as string, t]));
    expect([...byName.keys()].sort()).toEqual(
      [
        'addPet',
        // The bridge's own, served while an endpoint is configured.
        'cancel_task',
        'task_status',
        'coze_weather',
        'dify_forecast',
        'get_state',
        'getPetById',
        'getForecast',
        'light_turn_on',
        'listPets',
        'updatePet',
        'set_lights',
        'web_away',
        'web_moved',
        'web_weather',
      ].sort(),
    );
    // Dify's inputs from its parameters endpoint (the file input cannot be spoken: left out).
    expect(byName.get('dify_forecast')?.inputSchema).toMatchObject({
      properties: { city: { type: 'string', description: 'City' }, unit: { enum: ['celsius', 'fahrenheit'] } },
      required: ['city'],
    });
    expect(JSON.stringify(byName.get('dify_forecast')?.inputSchema)).not.toContain('photo');
    // OpenAPI: the body's fields as arguments, the $ref'd enum served inline (xiaozhi keeps no $defs).
    expect(byName.get('addPet')?.inputSchema).toMatchObject({
      properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['cat', 'dog', 'fish'] } },
      required: ['name'],
    });
    expect(byName.get('getPetById')?.inputSchema).toMatchObject({ properties: { petId: { type: 'integer' } }, required: ['petId'] });
    // Home Assistant: the service's fields and its target.
    expect(byName.get('light_turn_on')?.inputSchema).toMatchObject({
      properties: { entity_id: { type: 'string' }, brightness_pct: { type: 'number', minimum: 0, maximum: 100 } },
    });
  });

  it('answers each call with the platform’s result as short text', async () => {
    expect(await call('coze_weather', { city: 'Beijing' })).toEqual({ text: 'Sunny and 23 degrees in Beijing', isError: false });
    expect(await call('dify_forecast', { city: 'Shanghai' })).toEqual({ text: 'It will rain in Shanghai', isError: false });
    expect(await call('set_lights', { room: 'kitchen', state: 'on' })).toEqual({ text: 'Turned the kitchen lights on', isError: false });
    expect(await call('light_turn_on', { entity_id: 'light.kitchen', brightness_pct: 50 })).toEqual({
      text: 'Done. Kitchen light: on',
      isError: false,
    });
    expect(await call('get_state', { entity: 'living room temperature' })).toEqual({
      text: 'Living room temperature: 21.5 °C',
      isError: false,
    });
    expect(await call('getPetById', { petId: 2 })).toEqual({ text: '{"id":2,"name":"Tom","kind":"cat"}', isError: false });
    expect((await call('addPet', { name: 'Nemo', kind: 'fish' })).text).toBe('{"id":3,"name":"Nemo","kind":"fish"}');
    expect((await call('listPets', { limit: 1 })).text).toBe('[{"id":1,"name":"Rex","kind":"dog"}]');
    expect(await call('web_weather', { city: 'Hangzhou' })).toEqual({ text: 'It is 21 degrees in Hangzhou', isError: false });

    // The requests as each platform documents them.
    // By voice a call may go on in the background, longer than a blocking run may wait: streamed.
    const coze = standIns.seen.find((r) => r.path === '/coze/v1/workflow/stream_run');
    expect(coze?.body).toEqual({ workflow_id: '7300000000000000001', parameters: { city: 'Beijing' } });
    const dify = standIns.seen.find((r) => r.path === '/dify/v1/workflows/run');
    // A call by voice may go on in the background, longer than Dify Cloud lets a blocking request wait: streamed.
    expect(dify?.body).toMatchObject({ inputs: { city: 'Shanghai' }, response_mode: 'streaming', user: 'xiaozhi-tray' });
    const ha = standIns.seen.find((r) => r.path === '/ha/api/services/light/turn_on');
    expect(ha?.body).toEqual({ entity_id: 'light.kitchen', brightness_pct: 50 });
    expect(standIns.seen.find((r) => r.path === '/api/v1/pets' && r.method === 'POST')?.headers['x-api-key']).toBe(SECRETS.petstore);
  });

  it('words the platforms’ errors and refused tokens for the model, never a raw body', async () => {
    // A run the platform reports as failed, with its own error.
    expect(await call('dify_forecast', { city: 'Atlantis' })).toEqual({
      text: 'The tool "dify_forecast" failed: The Dify run failed: The weather node could not find the city.',
      isError: true,
    });
    // A device Home Assistant does not have (it would answer 200 and change nothing).
    expect(await call('light_turn_on', { entity_id: 'light.attic' })).toEqual({
      text: 'The tool "light_turn_on" failed: Home Assistant has no device or sensor called "light.attic".',
      isError: true,
    });
    // A pet that is not there: the API's own message.
    expect((await call('getPetById', { petId: 99 })).text).toBe(
      'The tool "getPetById" failed: pets answered HTTP 404: No pet has this id.',
    );
    // An entity no one has.
    expect((await call('get_state', { entity: 'garage door' })).text).toBe(
      'The tool "get_state" failed: Home Assistant has no device or sensor called "garage door".',
    );
    // The window gets the same as a problem it words in its own language.
    const fromWindow = await harness.bridge.api.callTool({ name: 'dify_forecast', arguments: { city: 'Atlantis' } });
    expect(fromWindow.error).toEqual({
      code: 'service.runFailed',
      params: { platform: 'Dify', message: 'The weather node could not find the city' },
    });
  });

  it('follows a redirect within the site and refuses one to another site, so a key never leaves it', async () => {
    expect(await call('web_moved', { city: 'Suzhou' })).toEqual({ text: 'Suzhou', isError: false });
    const away = await call('web_away', {});
    expect(away.isError).toBe(true);
    expect(away.text).toBe(
      `The tool "web_away" failed: web redirected the request to another site (${new URL(standIns.otherBase).host}); it was not followed.`,
    );
    expect(standIns.seen.some((r) => r.path.startsWith('other:'))).toBe(false);
  });

  it('is called through the local MCP server with the same tools and results', async () => {
    await waitFor(() => harness.bridge.state().localServer?.state === 'listening', 10_000, 'the local server to listen');
    const url = harness.bridge.state().localServer?.url as string;
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['coze_weather', 'dify_forecast', 'set_lights', 'light_turn_on', 'getPetById', 'web_weather']),
      );
      const text = async (name: string, args: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: args })) as CallToolResult).content[0];
      expect(await text('coze_weather', { city: 'Xi’an' })).toEqual({ type: 'text', text: 'Sunny and 23 degrees in Xi’an' });
      expect(await text('dify_forecast', { city: 'Chengdu' })).toEqual({ type: 'text', text: 'It will rain in Chengdu' });
      expect(await text('set_lights', { room: 'hall', state: 'off' })).toEqual({ type: 'text', text: 'Turned the hall lights off' });
      expect(await text('light_turn_on', { entity_id: 'light.kitchen' })).toEqual({ type: 'text', text: 'Done. Kitchen light: on' });
      expect(await text('getPetById', { petId: 1 })).toEqual({ type: 'text', text: '{"id":1,"name":"Rex","kind":"dog"}' });
      expect(await text('web_weather', { city: 'Wuhan' })).toEqual({ type: 'text', text: 'It is 21 degrees in Wuhan' });
    } finally {
      await client.close();
    }
  });

  it('keeps every token and key out of the log, the history, the state and the window’s settings', async () => {
    await call('coze_weather', { city: 'Beijing' });
    await call('dify_forecast', { city: 'Atlantis' });
    await call('set_lights', { room: 'kitchen', state: 'on' });
    await call('light_turn_on', { entity_id: 'light.attic' });
    await call('getPetById', { petId: 99 });
    await call('web_away', {});
    const said = await everythingSaid();
    for (const secret of Object.values(SECRETS)) expect(said).not.toContain(secret);
    // The requests did carry them.
    expect(standIns.seen.find((r) => r.path.startsWith('/coze/'))?.headers.authorization).toBe(`Bearer ${SECRETS.coze}`);
    expect(standIns.seen.find((r) => r.path.startsWith('/n8n/'))?.headers['x-n8n-key']).toBe(SECRETS.n8n);
  });
});

describe('web services whose token is refused', () => {
  it('says so for each platform: at setup (Dify, Home Assistant) as the status, at a call (Coze, n8n, OpenAPI) to the model', async () => {
    await harness.bridge.stop();
    const entries = serviceEntries(standIns.base).map((entry) => {
      const wrong = 'wrong-token-000000000000';
      if ('token' in entry) return { ...entry, token: wrong };
      if ('apiKey' in entry) return { ...entry, apiKey: wrong };
      if (entry.transport === 'n8n') return { ...entry, headers: { 'X-N8N-Key': wrong } };
      if (entry.transport === 'openapi') return { ...entry, credentials: { api_key: wrong } };
      return entry;
    });
    harness = makeBridge({
      connection: patientConnection,
      endpoints: [{ id: 'e1', name: 'home', url: xiaozhi.url() }],
      servers: entries as never,
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    session = await xiaozhi.connection(1);
    await session.initialize();
    const status = (name: string) => harness.bridge.state().servers.find((s) => s.name === name);
    expect(status('dify')).toMatchObject({
      state: 'failed',
      lastErrorCause: { code: 'service.http', params: { platform: 'Dify', status: 401, message: 'Access token is invalid' } },
    });
    expect(status('home')).toMatchObject({
      state: 'failed',
      lastErrorCause: { code: 'service.http', params: { platform: 'Home Assistant', status: 401, message: '401: Unauthorized' } },
    });
    expect(await call('coze_weather', { city: 'Beijing' })).toEqual({
      text: 'The tool "coze_weather" failed: Coze answered HTTP 401: authentication is invalid.',
      isError: true,
    });
    expect(await call('set_lights', { room: 'kitchen', state: 'on' })).toEqual({
      text: 'The tool "set_lights" failed: n8n answered HTTP 403: Authorization data is wrong!',
      isError: true,
    });
    expect((await call('listPets', {})).text).toBe('The tool "listPets" failed: pets answered HTTP 401: Invalid API key.');
    expect(logText(harness.logBook)).toContain('Dify answered HTTP 401: Access token is invalid');
  });
});

describe('a web service that does not answer', () => {
  it('is cancelled at its call timeout and the model is told so, like any tool', async () => {
    await harness.bridge.stop();
    harness = makeBridge({
      connection: patientConnection,
      endpoints: [{ id: 'e1', name: 'home', url: xiaozhi.url() }],
      servers: [
        {
          name: 'slow',
          transport: 'http-api',
          baseUrl: standIns.base,
          callTimeoutMs: 300,
          tools: [{ name: 'wait_forever', url: '/slow' }],
        },
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    session = await xiaozhi.connection(1);
    await session.initialize();
    expect(await call('wait_forever', {})).toEqual({
      text: 'The tool "wait_forever" took too long. It was stopped after 0.3 seconds.',
      isError: true,
    });
    const fromWindow = await harness.bridge.api.callTool({ name: 'wait_forever', arguments: {} });
    expect(fromWindow.error).toEqual({ code: 'call.timeout', params: { tool: 'wait_forever', seconds: 0.3 } });
  });
});
