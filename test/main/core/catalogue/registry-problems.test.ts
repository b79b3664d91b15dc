import http from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';

import { fetchRegistry } from '../../../../src/main/core/catalogue/registry-catalogue';
import { registryProblem } from '../../../../src/main/core/catalogue/registry-problem';
import { translator } from '../../../../src/shared/i18n/translate';
import { problemMessage } from '../../../../src/shared/problem-words';
import { fastSupervision, type Harness, makeBridge } from '../../../helpers/bridge-harness';

const servers: http.Server[] = [];
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A plain HTTP server on 127.0.0.1 with this handler, closed after the test. */
async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** An address where nothing listens (a port just freed; not port 9, which fetch itself refuses as a "bad port"). */
async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

/** Why reading the registry at `baseUrl` failed, as the window is told it. */
async function problemReading(baseUrl: string, timeoutMs = 20_000) {
  const error: unknown = await fetchRegistry({ baseUrl, maxPages: 1, timeoutMs }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  return registryProblem(error);
}

const zh = translator('zh-CN');
const en = translator('en');
/** No English cause (an error code, "fetch failed", a Node message) reaches the Chinese window. */
const plainChinese = (text: string) => expect(text).not.toMatch(/ENOTFOUND|ECONNREFUSED|fetch failed|aborted|getaddrinfo|registry/i);

describe('why the online catalogue could not be read, in words a person reads', () => {
  it('a name that cannot be found (offline, or no DNS) is "no network"', async () => {
    const found = await problemReading('http://registry.invalid/');
    expect(found).toMatchObject({ code: 'catalogue.offline' });
    const said = problemMessage(zh, found, undefined)!;
    plainChinese(said.message);
    expect(said.message).toContain('联网');
  });

  it('a refused connection', async () => {
    expect(await problemReading(await closedPort())).toMatchObject({ code: 'catalogue.refused' });
  });

  it('no answer in time', async () => {
    const url = await serve(() => undefined);
    const found = await problemReading(url, 300);
    expect(found).toMatchObject({ code: 'catalogue.timedOut' });
    plainChinese(problemMessage(zh, found, undefined)!.message);
  });

  it('an HTTP error status, 5xx and 4xx, the number kept as a detail', async () => {
    const busy = await serve((_req, res) => void res.writeHead(503).end('busy'));
    const found = await problemReading(busy);
    expect(found).toEqual({ code: 'catalogue.httpStatus', params: { status: 503 } });
    expect(problemMessage(en, found, undefined)!.message).toContain('503');
    const gone = await serve((_req, res) => void res.writeHead(404).end('no'));
    expect(await problemReading(gone)).toEqual({ code: 'catalogue.httpStatus', params: { status: 404 } });
  });

  it('an answer that is not JSON, or not the registry’s list', async () => {
    const html = await serve((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'));
    expect(await problemReading(html)).toMatchObject({ code: 'catalogue.badAnswer' });
    const other = await serve((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":1}'));
    expect(await problemReading(other)).toMatchObject({ code: 'catalogue.badAnswer' });
  });

  it('reaches the window with the catalogue (refreshProblem), the raw cause only in the log’s English', async () => {
    harness = makeBridge({}, fastSupervision, { registryUrl: await closedPort() });
    const catalogue = await harness.bridge.api.getCatalogue({ refresh: 'now' });
    expect(catalogue.refreshProblem).toMatchObject({ code: 'catalogue.refused' });
    const line = harness.logBook.entries().find((e) => e.message.includes('could not read the MCP registry'))!;
    expect(line.message).toContain('ECONNREFUSED');
    expect(line.cause).toMatchObject({ code: 'catalogue.refused' });
  });
});
