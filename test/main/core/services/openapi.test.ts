import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { logText } from '../../../helpers/bridge-harness';
import { githubLikeDocument, SECRETS } from '../../../helpers/service-stand-ins';
import { tempDirs } from '../../../helpers/temp-dirs';
import { serviceRuns } from './service-harness';

/**
 * OpenAPI documents as they are written (test/helpers/stand-ins/openapi-stand-in.ts: the 3.0.3 and
 * 3.1 specifications' idioms, and a document shaped as GitHub's own, @octokit/openapi's 13 MB with
 * 1,223 operations, no security scheme).
 */
const serve = serviceRuns();
const tempDir = tempDirs('xt-openapi-');
const GITHUB_TOKEN = 'ghp_GITHUBTOKEN0123456789abcdefABCDEF';
const github = githubLikeDocument();

const pets =
  (extra: Record<string, unknown> = {}) =>
  (base: string) => [
    { name: 'pets', transport: 'openapi', spec: `${base}/api/openapi.yaml`, credentials: { api_key: SECRETS.petstore }, ...extra },
  ];
const names = async (run: Awaited<ReturnType<typeof serve>>) => (await run.session.listAllTools()).tools.map((t) => t.name as string);
const server = (run: Awaited<ReturnType<typeof serve>>) => run.harness.bridge.state().servers[0];

describe('a document as large as GitHub’s (13 MB, 1,223 operations, no security scheme)', () => {
  const githubEntry = (spec: string, base: string) => ({
    name: 'github',
    transport: 'openapi',
    spec,
    baseUrl: `${base}/gh`,
    tags: ['issues'],
    headers: { Authorization: `Bearer ${GITHUB_TOKEN}` },
  });

  it('is read from a URL; the operations of the chosen tag are served and called with the token given as a header', async () => {
    expect(JSON.stringify(github).length).toBeGreaterThan(12 * 1024 * 1024);
    const run = await serve(
      (base) => [githubEntry(`${base}/api/github.json`, base)],
      {},
      (standIns) => standIns.openapi.serveBigDocument(github),
    );
    expect(server(run)).toMatchObject({ state: 'running', toolCount: 26 });
    const served = await names(run);
    expect(served.filter((n) => n.startsWith('issues_'))).toHaveLength(26);
    expect(await run.call('issues_item-23', { owner: 'octo', repo: 'hello' })).toEqual({
      text: '{"path":"/issues/octo/hello/item-4","method":"DELETE","body":null}',
      isError: false,
    });
    expect(run.requests('/gh/')[0]?.headers.authorization).toBe(`Bearer ${GITHUB_TOKEN}`);
  });

  it('is read from a file too', async () => {
    const file = path.join(tempDir(), 'api.github.com.json');
    fs.writeFileSync(file, JSON.stringify(github));
    const run = await serve((base) => [githubEntry(file, base)]);
    expect(server(run)).toMatchObject({ state: 'running', toolCount: 26 });
  });

  it('keeps the header’s token secret: masked for the window, never in the log, the history or the state', async () => {
    const run = await serve(
      (base) => [githubEntry(`${base}/api/github.json`, base)],
      {},
      (standIns) => standIns.openapi.serveBigDocument(github),
    );
    await run.call('issues_item-23', { owner: 'octo', repo: 'hello' });
    const settings = JSON.stringify(await run.harness.bridge.api.getSettings());
    expect(settings).toContain('"Authorization"');
    const said = [
      settings,
      logText(run.harness.logBook),
      JSON.stringify(await run.harness.bridge.api.getHistory()),
      JSON.stringify(run.harness.bridge.state()),
    ];
    for (const text of said) expect(text).not.toContain(GITHUB_TOKEN);
  });
});

describe('a document that can never be used', () => {
  it('too large (its length says 70 MB): fails once, in its own words, and is not retried', async () => {
    const run = await serve((base) => [{ name: 'huge', transport: 'openapi', spec: `${base}/api/huge.json` }]);
    expect(server(run)).toMatchObject({
      state: 'failed',
      restarts: 0,
      lastErrorCause: { code: 'service.setup.documentTooBig', params: { platform: 'huge', megabytes: 32 } },
    });
  });

  it('too large as a file: the same', async () => {
    const file = path.join(tempDir(), 'huge.json');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 40 * 1024 * 1024);
    const run = await serve(() => [{ name: 'huge', transport: 'openapi', spec: file }]);
    expect(server(run)).toMatchObject({ state: 'failed', restarts: 0, lastErrorCause: { code: 'service.setup.documentTooBig' } });
  });

  it('a web page where the document should be: not OpenAPI, not retried', async () => {
    const run = await serve((base) => [{ name: 'page', transport: 'openapi', spec: `${base}/api/page.html` }]);
    expect(server(run)).toMatchObject({ state: 'failed', restarts: 0 });
    expect(server(run)?.lastErrorCause?.code).toMatch(/^service\.setup\./);
  });
});

describe('OpenAPI 3.0 idioms', () => {
  it('become JSON Schema, so the argument check works: nullable, a boolean exclusiveMaximum, a read-only id', async () => {
    const run = await serve(pets());
    const { tools } = await run.session.listAllTools();
    const schema = tools.find((t) => t.name === 'updatePet')?.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    expect(schema.properties.nickname).toEqual({ type: ['string', 'null'] });
    expect(schema.properties.age).toEqual({ type: 'integer', minimum: 0, exclusiveMaximum: 50 });
    expect(schema.properties.id).toBeUndefined();
    expect(schema.required).toEqual(['petId']);
    expect(JSON.stringify(tools.find((t) => t.name === 'addPet')?.inputSchema)).not.toContain('nullable');

    expect((await run.call('updatePet', { petId: 1, nickname: null })).isError).toBe(false);
    expect(run.requests('/api/v1/pets/1')[0]?.body).toEqual({ nickname: null });
    const tooOld = await run.call('updatePet', { petId: 1, age: 50 });
    expect(tooOld.isError).toBe(true);
    expect(tooOld.text).toMatch(/age/);
    expect(run.requests('/api/v1/pets/1')).toHaveLength(1);
  });
});

describe('what an operation is served as', () => {
  it('its summary, description and tags, so a search in the words of its description finds it', async () => {
    const run = await serve(pets());
    const { tools } = await run.session.listAllTools();
    expect(tools.find((t) => t.name === 'getForecast')?.description).toBe(
      "Get the forecast. 查询城市的天气预报。Answers the next days' weather for a city. (weather)",
    );
    const hits = await run.harness.bridge.api.searchTools({ query: '天气' });
    expect(hits.map((h) => h.name)).toContain('getForecast');
  });
});

describe('choosing the operations served', () => {
  it('by tag, by path (with *), or by operationId, together', async () => {
    const byTag = await serve(pets({ tags: ['weather'] }));
    expect((await names(byTag)).filter((n) => !['cancel_task', 'task_status'].includes(n))).toEqual(['getForecast']);
    const byPath = await serve(pets({ paths: ['/pets/*'], operations: ['listPets'] }));
    expect((await names(byPath)).filter((n) => !['cancel_task', 'task_status'].includes(n)).sort()).toEqual([
      'getPetById',
      'listPets',
      'updatePet',
    ]);
  });

  it('a misspelled operationId is left out with the one meant, and the others served', async () => {
    const run = await serve(pets({ operations: ['listPets', 'getPetByID'] }));
    expect(server(run)).toMatchObject({ state: 'running', toolCount: 1 });
    expect(server(run)?.skippedTools).toEqual([{ name: 'getPetByID', position: 2, reason: 'noSuchOperation', near: 'getPetById' }]);
  });
});
