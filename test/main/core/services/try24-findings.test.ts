import fs from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unknownKeys, configFileText } from '../../../../src/main/core/config/config-file-writer';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { openApiTools } from '../../../../src/main/core/services/openapi';
import { homeAssistantTools } from '../../../../src/main/core/services/home-assistant';
import { httpApiTools } from '../../../../src/main/core/services/http-api';
import { ServiceHttp, speakable } from '../../../../src/main/core/services/service-http';
import { spokenServiceError } from '../../../../src/main/core/hub/spoken-error';
import { serviceSecretValues } from '../../../../src/main/core/secrets/service-secrets';
import { ServiceServer } from '../../../../src/main/core/services/service-server';
import { draftFromService, serviceFromDraft } from '../../../../src/renderer/pages/service-form';
import { ServerSettingsSchema, type ServiceSettings } from '../../../../src/shared/settings';
import { tempDirs } from '../../../helpers/temp-dirs';
import { testContext } from './service-harness';
import { translate } from '../../../../src/shared/i18n/translate';
import type { Problem } from '../../../../src/shared/problem';

/**
 * Findings of the try24 review of web services (issue 24), each reproduced as a test that fails
 * today (`it.fails`): when one starts to pass, the defect it names is fixed and `.fails` goes.
 * See /work/notes/try24-report.md for the whole report.
 */

const makeTempDir = tempDirs('xt-try24-');
let server: http.Server;
let base: string;
const seen: string[] = [];

beforeEach(async () => {
  seen.length = 0;
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'a'.repeat(1 << 20);
      for (let i = 0; i < 9; i++) res.write(chunk);
      res.end();
      return;
    }
    if (req.url === '/empty') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (req.url?.startsWith('/echo') || req.url?.startsWith('/refuse')) {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const refused = req.url?.startsWith('/refuse');
        res.writeHead(refused ? 401 : 200, { 'content-type': 'application/json' });
        const said = { url: req.url, headers: req.headers, body };
        res.end(JSON.stringify(refused ? { message: `bad request ${JSON.stringify(said)}` } : said));
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterEach(async () => {
  server.close();
  await once(server, 'close');
});

const context = (platform: string) => testContext(platform);
const parse = (s: unknown) => ServerSettingsSchema.parse(s) as ServiceSettings;

describe('try24: a config file with web services', () => {
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

describe('try24: the web service dialog, opened and saved without a change', () => {
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

describe('try24: OpenAPI documents', () => {
  it('keeps a path argument of ".." inside the operation’s path', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: `${base}/api` }],
      paths: { '/users/{id}/profile': { get: { operationId: 'profile', parameters: [{ name: 'id', in: 'path', required: true }] } } },
    };
    const file = path.join(makeTempDir(), 'doc.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const [tool] = await openApiTools(parse({ name: 'o', transport: 'openapi', spec: file }) as never, context('o'));
    // Sent before: /api/profile (the model climbed out of /users/{id}). Now refused, and nothing is sent.
    for (const value of ['..', '.']) {
      const error = await tool?.call({ id: value }, { timeoutMs: 5000 }).catch((e: Error) => e);
      expect((error as Error).message).toMatch(new RegExp(`argument id cannot be "${value.replace(/\./g, '\\.')}"`));
    }
    expect(seen).toEqual([]);
    for (const value of ['../x', 'a/b', '%2e%2e', '..%2F']) await tool?.call({ id: value }, { timeoutMs: 5000 });
    for (const url of seen) expect(url).toMatch(/^\/api\/users\/[^/]+\/profile$/);
  });

  it('keeps a path argument of an HTTP request inside its path, and a query argument as it is', async () => {
    const [tool] = httpApiTools(
      parse({ name: 'w', transport: 'http-api', baseUrl: `${base}/api1`, tools: [{ name: 't', url: '/pets/{id}?q={q}' }] }) as never,
      context('w'),
    );
    const error = await tool?.call({ id: '..', q: 'x' }, { timeoutMs: 5000 }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/argument id cannot be "\.\."/);
    expect(seen).toEqual([]);
    await tool?.call({ id: '7', q: '..' }, { timeoutMs: 5000 });
    expect(seen).toEqual(['/api1/pets/7?q=..']);
  });

  const bomb = (levels: number) => {
    let yaml = `openapi: 3.0.3\ninfo: {title: t, version: "1"}\nservers: [{url: "${base}"}]\nx-bomb:\n  l0: &l0 {type: string}\n`;
    for (let i = 1; i <= levels; i++) yaml += `  l${i}: &l${i} {type: object, properties: {a: *l${i - 1}, b: *l${i - 1}}}\n`;
    yaml += 'paths:\n  /x:\n    get:\n      operationId: bomb\n      parameters:\n';
    yaml += `        - {name: q, in: query, schema: *l${levels}}\n`;
    yaml += '  /ok:\n    get:\n      operationId: fine\n';
    const file = path.join(makeTempDir(), 'bomb.yaml');
    fs.writeFileSync(file, yaml);
    return file;
  };

  it('bounds a tool schema built from a small YAML document full of aliases (a "billion laughs")', async () => {
    // 1.1 KB with 16 levels made a 3.8 MB schema: the operation is left out, with a warning; the others stay.
    const file = bomb(16);
    const book = new LogBook();
    const tools = await openApiTools(parse({ name: 'o', transport: 'openapi', spec: file }) as never, {
      ...context('o'),
      log: book.logger('server:o'),
    });
    expect(tools.map((t) => t.tool.name)).toEqual(['fine']);
    for (const t of tools) expect(JSON.stringify(t.tool.inputSchema).length).toBeLessThan(100_000);
    expect(book.entries().map((e) => e.message)).toContainEqual(expect.stringMatching(/1 operation\(s\) .* left out.*too large \(bomb\)/));
  });

  it('refuses a document that is huge once its aliases are expanded, naming it, without freezing', async () => {
    // 25 levels (1.8 KB) ran the CLI out of 4 GB of memory in 9 minutes.
    const file = bomb(25);
    const started = Date.now();
    const error = await openApiTools(parse({ name: 'o', transport: 'openapi', spec: file }) as never, context('o')).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/too large once its YAML aliases are expanded/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('names operations whose operationId is Chinese apart (not all "operation")', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: base }],
      paths: { '/a': { get: { operationId: '查询宠物' } }, '/b': { get: { operationId: '添加宠物' } } },
    };
    const file = path.join(makeTempDir(), 'zh.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const tools = await openApiTools(parse({ name: 'o', transport: 'openapi', spec: file }) as never, context('o'));
    expect(tools.map((t) => t.tool.name)).toEqual(['get_a', 'get_b']);
  });
});

describe('try24: OpenAPI names and limits', () => {
  const write = (doc: unknown, name = 'doc.json') => {
    const dir = makeTempDir();
    fs.writeFileSync(
      path.join(dir, name),
      JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, servers: [{ url: base }], ...(doc as object) }),
    );
    return { dir, file: path.join(dir, name) };
  };

  it('says how many operations past the limit are not served', async () => {
    const paths = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`/p${i}`, { get: { operationId: `op${i}` } }]));
    const { file } = write({ paths });
    const book = new LogBook();
    const tools = await openApiTools(parse({ name: 'o', transport: 'openapi', spec: file }) as never, {
      ...context('o'),
      log: book.logger('s'),
    });
    expect(tools).toHaveLength(100);
    expect(book.entries().map((e) => e.message)).toContainEqual(expect.stringMatching(/has 150 operations; the first 100 are served/));
  });

  it('refuses a credential named after no security scheme, saying which there are', async () => {
    const { file } = write({
      components: { securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
      paths: { '/a': { get: { operationId: 'a' } } },
    });
    const error = await openApiTools(
      parse({ name: 'o', transport: 'openapi', spec: file, credentials: { apikey: 'k' } }) as never,
      context('o'),
    ).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      'o could not be set up: credentials.apikey: the document has no security scheme "apikey" (it has api_key); did you mean "api_key"?',
    );
  });

  it('suggests the operation meant', async () => {
    const { file } = write({ paths: { '/a': { get: { operationId: 'getPetById' } } } });
    const error = await openApiTools(
      parse({ name: 'o', transport: 'openapi', spec: file, operations: ['getPet'] }) as never,
      context('o'),
    ).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/no operation getPet \(did you mean getPetById\?\)/);
  });

  it('says why a setup failed with a code the window words in Chinese, not an English detail', async () => {
    const { dir } = write({ paths: {} }, 'pets.json');
    const error = (await openApiTools(parse({ name: 'o', transport: 'openapi', spec: 'nope.json' }) as never, {
      ...context('o'),
      configDir: dir,
    }).catch((e: unknown) => e)) as Error & { problem: Problem };
    expect(error.message).toBe(`o could not be set up: cannot read ${path.join(dir, 'nope.json')}: there is no such file`);
    expect(translate('zh-CN', `problem.${error.problem.code}` as never, error.problem.params)).toBe(
      `o 无法完成设置：找不到文件 ${path.join(dir, 'nope.json')}。`,
    );
    const notOpenApi = (await openApiTools(
      parse({ name: 'o', transport: 'openapi', spec: path.join(dir, 'pets.json') }) as never,
      context('o'),
    )
      .then(() => undefined)
      .catch((e: unknown) => e)) as { problem: Problem } | undefined;
    expect(notOpenApi).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'x.json'), '{"swagger":"2.0"}');
    const old = (await openApiTools(parse({ name: 'o', transport: 'openapi', spec: 'x.json' }) as never, {
      ...context('o'),
      configDir: dir,
    }).catch((e: unknown) => e)) as { problem: Problem };
    expect(translate('zh-CN', `problem.${old.problem.code}` as never, old.problem.params)).toBe(
      'o 无法完成设置：该文档不是 OpenAPI 3 文档（缺少 "openapi": "3.x"）。',
    );
  });

  it('reads a relative document path from the config file’s folder, not the working folder', async () => {
    const { dir } = write({ paths: { '/a': { get: { operationId: 'a' } } } }, 'pets.json');
    const tools = await openApiTools(parse({ name: 'o', transport: 'openapi', spec: 'pets.json' }) as never, {
      ...context('o'),
      configDir: dir,
    });
    expect(tools.map((t) => t.tool.name)).toEqual(['a']);
  });
});

describe('try24: what the model hears', () => {
  it('words an answer over 8 MB, not as the code "server.answerTooBig"', async () => {
    const [tool] = httpApiTools(
      parse({ name: 'w', transport: 'http-api', tools: [{ name: 't', url: `${base}/huge` }] }) as never,
      context('w'),
    );
    const error = await tool?.call({}, { timeoutMs: 5000 }).catch((e: Error) => e);
    expect((error as Error).message).toBe('w answered with more than 8 MB; the answer was not read');
  });

  it('says something else than "Fetch failed" when the service cannot be reached', async () => {
    const [tool] = httpApiTools(
      parse({ name: 'w', transport: 'http-api', tools: [{ name: 't', url: 'http://127.0.0.1:9/x' }] }) as never,
      context('w'),
    );
    const error = await tool?.call({}, { timeoutMs: 5000 }).catch((e: Error) => e);
    expect((error as Error).message).toBe('w could not be reached at 127.0.0.1:9: nothing answered there');
  });
});

describe('try24: what the model hears, worded', () => {
  const failure = async (tool: Record<string, unknown>, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => {
    const [t] = httpApiTools(parse({ name: 'w', transport: 'http-api', ...extra, tools: [{ name: 't', ...tool }] }) as never, context('w'));
    return ((await t?.call(args, { timeoutMs: 5000 }).catch((e: Error) => e)) as Error).message;
  };

  it('says a relative or non-web URL is not a full web address', async () => {
    const said = async (url: string) =>
      ((await new ServiceHttp('w').send({ method: 'GET', url }, { timeoutMs: 5000 }).catch((e: Error) => e)) as Error).message;
    expect(await said('/relative')).toBe('w: "/relative" is not a full web address (http:// or https://)');
    expect(await said('ftp://127.0.0.1/x')).toMatch(/"ftp:\/\/127\.0\.0\.1\/x" is not a full web address/);
    expect(await said('file:///etc/passwd')).toMatch(/is not a full web address/);
  });

  it('refuses in the settings (so `check` says where) a URL that can only fail', () => {
    const issues = (url: string, extra: object = {}) => {
      const parsed = ServerSettingsSchema.safeParse({ name: 'w', transport: 'http-api', ...extra, tools: [{ name: 't', url }] });
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issues('/relative')).toEqual([
      'tools.0.url: is a path without the service\'s "baseUrl": write the whole address (https://…), or give "baseUrl"',
    ]);
    expect(issues('ftp://h/x')).toEqual(['tools.0.url: must be an http:// or https:// address']);
    expect(issues('file:///etc/passwd')).toEqual(['tools.0.url: must be an http:// or https:// address']);
    expect(issues('/relative', { baseUrl: 'https://h' })).toEqual([]);
    expect(issues('https://h/x')).toEqual([]);
  });

  it('names a header whose value fetch cannot send (Chinese text, a line break)', async () => {
    const tool = { url: `${base}/echo`, headers: { 'X-City': '{city}' } };
    for (const city of ['北京', 'a\r\nX-Injected: 1'])
      expect(await failure(tool, { city })).toBe('w was not asked: the header X-City can only hold plain Latin text, on one line');
    expect(seen).toEqual([]);
  });

  it('says a redirect loop is one', async () => {
    const loop = http.createServer((req, res) => {
      res.writeHead(302, { location: `/loop${req.url?.length ?? 0}` });
      res.end();
    });
    loop.listen(0, '127.0.0.1');
    await once(loop, 'listening');
    try {
      const port = (loop.address() as { port: number }).port;
      expect(await failure({ url: `http://127.0.0.1:${port}/loop` })).toBe('w redirected the request too many times; it was stopped');
    } finally {
      loop.close();
    }
  });

  it('reads a service’s failure to a Chinese user in Chinese', () => {
    const said = spokenServiceError(
      't',
      { message: 'x', problem: { code: 'service.unreachable', params: { platform: 'w', host: '127.0.0.1:9' } } },
      'zh-CN',
    );
    expect(said).toBe('工具“t”出错了：无法连接 w（127.0.0.1:9）：那里没有服务应答。');
  });
});

describe('try24: a wrong token seen at start', () => {
  it('Home Assistant with only "what is the state of" fails at start on a refused token, not at the first question', async () => {
    const ha = http.createServer((req, res) => {
      const ok = req.headers.authorization === 'Bearer good-token';
      res.writeHead(ok ? 200 : 401, { 'content-type': ok ? 'application/json' : 'text/plain' });
      res.end(ok ? '{"message":"API running."}' : '401: Unauthorized');
    });
    ha.listen(0, '127.0.0.1');
    await once(ha, 'listening');
    try {
      const baseUrl = `http://127.0.0.1:${(ha.address() as { port: number }).port}`;
      const settings = (token: string) => parse({ name: 'home', transport: 'home-assistant', baseUrl, token, services: [], states: true });
      const error = await homeAssistantTools(settings('bad-token') as never, context('Home Assistant')).catch((e: Error) => e);
      expect((error as Error).message).toBe('Home Assistant answered HTTP 401: 401: Unauthorized');
      const tools = await homeAssistantTools(settings('good-token') as never, context('Home Assistant'));
      expect(tools.map((t) => t.tool.name)).toEqual(['get_state']);
    } finally {
      ha.close();
    }
  });
});

describe('try24: tools a service leaves out', () => {
  it('says which and why, with a problem the window words, and shows them in the status', async () => {
    const book = new LogBook();
    const server = new ServiceServer({
      settings: parse({
        name: 'w',
        transport: 'http-api',
        tools: [
          { name: 't', url: `${base}/x` },
          { name: 't', url: `${base}/y` },
        ],
      }),
      log: book.logger('server:w'),
      defaults: () => ({ callTimeoutMs: 5000 }),
      onStatus: () => {},
      onTools: () => {},
    });
    await server.start();
    const warning = book.entries().find((e) => e.problem?.code === 'server.toolsLeftOut');
    expect(warning?.message).toMatch(/left out \(1 tool served\): .*t/);
    expect(server.status()).toMatchObject({ skippedToolCount: 1, skippedTools: [expect.objectContaining({ name: 't' })] });
    await server.stop();
  });
});

describe('try24: secrets the model must not hear', () => {
  const SECRETS = ['URLTOKEN_SECRET_999', 'APPID_SECRET_777', 'BODY_SECRET_555', 'HEADER_SECRET_SECOND_77', '123456:TELEGRAM_SECRET_AAA'];

  async function serve(settings: unknown) {
    const book = new LogBook();
    const server = new ServiceServer({
      settings: parse(settings),
      log: book.logger('server:s'),
      defaults: () => ({ callTimeoutMs: 5000 }),
      onStatus: () => {},
      onTools: () => {},
    });
    await server.start();
    return server;
  }

  it('masks tokens in a tool’s URL, its query, its body template and its headers in answers and errors', async () => {
    const server = await serve({
      name: 'owm',
      transport: 'http-api',
      headers: { 'X-Api-Key': 'k', Authorization: 'Bearer HEADER_SECRET_SECOND_77' },
      tools: [
        { name: 'wx', url: `${base}/refuse?access_token=URLTOKEN_SECRET_999`, query: { appid: 'APPID_SECRET_777', q: '{city}' } },
        {
          name: 'tg',
          method: 'POST',
          url: `${base}/refuse/bot123456:TELEGRAM_SECRET_AAA/send`,
          body: { api_key: 'BODY_SECRET_555', text: '{text}' },
        },
        { name: 'echo', method: 'POST', url: `${base}/echo?appid=APPID_SECRET_777`, body: { api_key: 'BODY_SECRET_555', text: '{text}' } },
      ],
    });
    const said: string[] = [];
    for (const [tool, args] of [
      ['wx', { city: 'x' }],
      ['tg', { text: 'hi' }],
    ] as const) {
      const error = await server.callTool(tool, args, {}).catch((e: Error) => e);
      said.push((error as Error).message, JSON.stringify((error as { problem?: unknown }).problem));
    }
    const echoed = await server.callTool('echo', { text: 'hi' }, {});
    said.push(JSON.stringify(echoed));
    expect(said.join('\n')).toMatch(/bad request/);
    expect(said.join('\n')).toMatch(/x-api-key/);
    for (const secret of SECRETS) expect(said.join('\n')).not.toContain(secret);
    await server.stop();
  });

  it('reads a URL with a broken percent escape without failing', () => {
    expect(() =>
      parse({ name: 'w', transport: 'http-api', tools: [{ name: 't', url: 'https://h/a%FF%zz/0123456789abcdefghij0123' }] }),
    ).not.toThrow();
    const values = serviceSecretValues(
      parse({ name: 'w', transport: 'http-api', tools: [{ name: 't', url: 'https://h/a%FF%zz0123456789abcdefghij/x' }] }),
    );
    expect(values).toContain('a%FF%zz0123456789abcdefghij');
  });

  it('masks an n8n webhook’s header auth echoed back in its answer', async () => {
    const server = await serve({ name: 'n', transport: 'n8n', url: `${base}/echo`, headers: { 'X-Key': 'n8n-SECRET-1' }, tool: 't' });
    const answer = JSON.stringify(await server.callTool('t', {}, {}));
    expect(answer).toMatch(/x-key/);
    expect(answer).not.toContain('n8n-SECRET-1');
    await server.stop();
  });
});

describe('try24: smaller things', () => {
  it('describes a request tool without a description by its request, never its query or a token', () => {
    const tools = httpApiTools(
      parse({
        name: 'w',
        transport: 'http-api',
        tools: [
          { name: 'a', url: 'https://h/weather?key=SECRET_KEY_1234' },
          { name: 'b', method: 'POST', url: 'https://h/bot123456:TELEGRAM_SECRET_AAA/send' },
        ],
      }) as never,
      context('w'),
    );
    expect(tools[0]?.tool.description).toBe('GET https://h/weather');
    expect(tools[1]?.tool.description).toMatch(/^POST https:\/\/h\//);
    expect(tools[1]?.tool.description).not.toContain('TELEGRAM_SECRET_AAA');
  });

  it('hears an empty (204) answer as done, not as nothing', async () => {
    const [tool] = httpApiTools(
      parse({ name: 'w', transport: 'http-api', tools: [{ name: 't', method: 'POST', url: `${base}/empty` }] }) as never,
      context('w'),
    );
    expect(await tool?.call({}, { timeoutMs: 5000 })).toEqual({ content: [{ type: 'text', text: 'Done.' }] });
  });

  it('cuts a platform’s long error to its first sentence, at most 200 characters', () => {
    expect(speakable('The weather node failed.  Traceback: a\n b c')).toBe('The weather node failed.');
    expect(speakable('x'.repeat(500))).toHaveLength(200);
  });

  it('follows a redirect from http to https on the same host, and no other host', async () => {
    const fake: typeof fetch = async (input) => {
      const url = String(input);
      if (url === 'http://api.example.com/x')
        return new Response(null, { status: 301, headers: { location: 'https://api.example.com/x' } });
      if (url === 'https://api.example.com/x') return new Response(null, { status: 302, headers: { location: '/y' } });
      if (url === 'https://api.example.com/y') return new Response('{"ok":1}', { headers: { 'content-type': 'application/json' } });
      if (url === 'http://api.example.com/away')
        return new Response(null, { status: 301, headers: { location: 'https://evil.example.com/x' } });
      return new Response('no', { status: 404 });
    };
    const service = new ServiceHttp('w', fake);
    expect((await service.send({ method: 'GET', url: 'http://api.example.com/x' }, { timeoutMs: 5000 })).json).toEqual({ ok: 1 });
    const error = await service.send({ method: 'GET', url: 'http://api.example.com/away' }, { timeoutMs: 5000 }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/redirected the request to another site \(evil\.example\.com\)/);
  });

  it('reads an OpenAPI document whose URL redirects to another host (its GET carries no secret)', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: base }],
      paths: { '/a': { get: { operationId: 'a' } } },
    };
    const docs = http.createServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: `${base.replace('127.0.0.1', 'localhost')}/spec` });
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
    server.removeAllListeners('request');
    server.on('request', (_req, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(doc));
    });
    docs.listen(0, '127.0.0.1');
    await once(docs, 'listening');
    try {
      const spec = `http://127.0.0.1:${(docs.address() as { port: number }).port}/moved`;
      const tools = await openApiTools(parse({ name: 'o', transport: 'openapi', spec }) as never, context('o'));
      expect(tools.map((t) => t.tool.name)).toEqual(['a']);
    } finally {
      docs.close();
    }
  });
});
