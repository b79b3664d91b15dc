import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import { httpApiTools } from '../../../../src/main/core/services/http-api';
import { openApiTools } from '../../../../src/main/core/services/openapi';
import { translate } from '../../../../src/shared/i18n/translate';
import type { Problem } from '../../../../src/shared/problem';
import { ServerSettingsSchema, type ServiceSettings } from '../../../../src/shared/settings';
import { tempDirs } from '../../../helpers/temp-dirs';
import { echoingService } from './echoing-service';
import { testContext } from './service-harness';

/** OpenAPI documents read into tools: paths kept inside their operation, aliases bounded, names and limits said. */

const makeTempDir = tempDirs('xt-services-');
const context = (platform: string) => testContext(platform);
const parse = (s: unknown) => ServerSettingsSchema.parse(s) as ServiceSettings;
const service = echoingService();

describe('OpenAPI documents', () => {
  it('keeps a path argument of ".." inside the operation’s path', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: `${service.base}/api` }],
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
    expect(service.seen).toEqual([]);
    for (const value of ['../x', 'a/b', '%2e%2e', '..%2F']) await tool?.call({ id: value }, { timeoutMs: 5000 });
    for (const url of service.seen) expect(url).toMatch(/^\/api\/users\/[^/]+\/profile$/);
  });

  it('keeps a path argument of an HTTP request inside its path, and a query argument as it is', async () => {
    const [tool] = httpApiTools(
      parse({
        name: 'w',
        transport: 'http-api',
        baseUrl: `${service.base}/api1`,
        tools: [{ name: 't', url: '/pets/{id}?q={q}' }],
      }) as never,
      context('w'),
    );
    const error = await tool?.call({ id: '..', q: 'x' }, { timeoutMs: 5000 }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/argument id cannot be "\.\."/);
    expect(service.seen).toEqual([]);
    await tool?.call({ id: '7', q: '..' }, { timeoutMs: 5000 });
    expect(service.seen).toEqual(['/api1/pets/7?q=..']);
  });

  const bomb = (levels: number) => {
    let yaml = `openapi: 3.0.3\ninfo: {title: t, version: "1"}\nservers: [{url: "${service.base}"}]\nx-bomb:\n  l0: &l0 {type: string}\n`;
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
      servers: [{ url: service.base }],
      paths: { '/a': { get: { operationId: '查询宠物' } }, '/b': { get: { operationId: '添加宠物' } } },
    };
    const file = path.join(makeTempDir(), 'zh.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const tools = await openApiTools(parse({ name: 'o', transport: 'openapi', spec: file }) as never, context('o'));
    expect(tools.map((t) => t.tool.name)).toEqual(['get_a', 'get_b']);
  });
});

describe('OpenAPI names and limits', () => {
  const write = (doc: unknown, name = 'doc.json') => {
    const dir = makeTempDir();
    fs.writeFileSync(
      path.join(dir, name),
      JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, servers: [{ url: service.base }], ...(doc as object) }),
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
