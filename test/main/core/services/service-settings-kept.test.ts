import { describe, expect, it } from 'vitest';

import { configFileText, unknownKeys } from '../../../../src/main/core/config/config-file-writer';
import { draftFromService, serviceFromDraft } from '../../../../src/renderer/pages/service-form';
import { ServerSettingsSchema, type ServiceSettings } from '../../../../src/shared/settings';

/** What a web service's settings keep through the config file and the window's dialog: only what was changed changes. */

const parse = (s: unknown) => ServerSettingsSchema.parse(s) as ServiceSettings;

describe('a config file with web services', () => {
  it('does not warn that every key of a web service "is not a setting and is ignored"', () => {
    // `xiaozhi-tray check` prints 18 such warnings for the README's own example (config-file-writer.ts KNOWN.list.servers).
    const found = unknownKeys({ servers: [{ name: 'd', transport: 'dify', apiKey: 'app-x', tool: 'f', app: 'workflow' }] });
    expect(found).toEqual([]);
  });

  it('knows each transport’s own keys: a Coze token on a stdio server is still "not a setting"', () => {
    const found = unknownKeys({
      servers: [
        { name: 's', transport: 'stdio', command: 'x', token: 'pat_x' },
        { name: 'h', transport: 'home-assistant', baseUrl: 'http://h:8123', token: 't', services: [], states: true },
      ],
    });
    expect(found.map((f) => f.path.join('.'))).toEqual(['servers.0.token']);
  });

  it('writes no default the file did not have inside a service’s tools, workflows and inputs', () => {
    const n8n = parse({ name: 'n', transport: 'n8n', url: 'https://h/webhook/a', tool: 't', inputs: [{ name: 'room' }] });
    const web = parse({ name: 'w', transport: 'http-api', tools: [{ name: 't', url: 'https://h/x' }] });
    const coze = parse({ name: 'c', transport: 'coze', token: 'pat_x', workflows: [{ id: '1', tool: 't', inputs: [{ name: 'city' }] }] });
    const written = JSON.parse(configFileText({ servers: [n8n, web, coze] } as never, '{}\n')).servers;
    expect(written[0].inputs).toEqual([{ name: 'room' }]);
    expect(written[1].tools).toEqual([{ name: 't', url: 'https://h/x' }]);
    expect(written[2].workflows).toEqual([{ id: '1', tool: 't', inputs: [{ name: 'city' }] }]);
    // A default the file did have stays.
    const before = JSON.stringify({
      servers: [{ name: 'w', transport: 'http-api', tools: [{ name: 't', url: 'https://h/x', method: 'GET' }] }],
    });
    expect(JSON.parse(configFileText({ servers: [web] } as never, before)).servers[0].tools).toEqual([
      { name: 't', url: 'https://h/x', method: 'GET' },
    ]);
  });

  it('forgets a key the window removed (operations cleared) instead of keeping it from the old file', () => {
    const before = JSON.stringify({
      servers: [{ name: 'pets', transport: 'openapi', spec: 'https://x/openapi.yaml', operations: ['listPets'] }],
    });
    const after = parse({ name: 'pets', transport: 'openapi', spec: 'https://x/openapi.yaml' });
    const text = configFileText({ servers: [after] } as never, before);
    expect(JSON.parse(text).servers[0]).not.toHaveProperty('operations');
  });
});

describe('the web service dialog, opened and saved without a change', () => {
  const cases: [string, unknown][] = [
    [
      'coze on its own deployment (baseUrl)',
      { name: 'c', transport: 'coze', baseUrl: 'http://127.0.0.1:1', token: 'pat_x', workflows: [{ id: '1', tool: 't' }] },
    ],
    ['an HTTP API with a baseUrl', { name: 'w', transport: 'http-api', baseUrl: 'http://127.0.0.1:1', tools: [{ name: 't', url: '/x' }] }],
    [
      'an HTTP API with two headers',
      {
        name: 'w',
        transport: 'http-api',
        headers: { 'X-Api-Key': 'k', Authorization: 'Bearer b' },
        tools: [{ name: 't', url: 'http://127.0.0.1:1/x' }],
      },
    ],
    [
      'an n8n webhook with a result pick and a number input',
      {
        name: 'n',
        transport: 'n8n',
        url: 'http://127.0.0.1:1/webhook/a',
        tool: 't',
        inputs: [{ name: 'n', type: 'integer' }],
        result: { pick: '/reply' },
      },
    ],
    ['a Dify workflow with its output', { name: 'd', transport: 'dify', apiKey: 'app-x', tool: 't', output: 'text' }],
    [
      'an OpenAPI document with two credentials',
      { name: 'o', transport: 'openapi', spec: 'https://x/o.yaml', credentials: { a: '1', b: '2' } },
    ],
  ];
  for (const [what, raw] of cases)
    it(`keeps every setting of ${what}`, () => {
      const service = parse(raw);
      expect(parse(serviceFromDraft(draftFromService(service), service))).toEqual(service);
    });

  it('changes only what was changed: a second header stays, an emptied field goes', () => {
    const service = parse({
      name: 'o',
      transport: 'openapi',
      spec: 'https://x/o.yaml',
      baseUrl: 'https://x/api',
      operations: ['a'],
      credentials: { a: '1', b: '2' },
    });
    const draft = { ...draftFromService(service), baseUrl: '', operations: '', credentialName: 'c', credential: '3' };
    expect(parse(serviceFromDraft(draft, service))).toEqual(
      parse({ name: 'o', transport: 'openapi', spec: 'https://x/o.yaml', credentials: { c: '3', b: '2' } }),
    );
    const n8n = parse({
      name: 'n',
      transport: 'n8n',
      url: 'http://127.0.0.1:1/webhook/a',
      tool: 't',
      inputs: [{ name: 'n', type: 'integer' }, { name: 'm' }],
    });
    const fewer = { ...draftFromService(n8n), inputs: 'n: how many\nk' };
    expect(parse(serviceFromDraft(fewer, n8n))).toMatchObject({
      inputs: [
        { name: 'n', type: 'integer', description: 'how many' },
        { name: 'k', type: 'string' },
      ],
    });
  });
});
