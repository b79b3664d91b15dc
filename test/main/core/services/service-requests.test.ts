import { once } from 'node:events';
import http from 'node:http';

import { describe, expect, it } from 'vitest';

import { httpApiTools } from '../../../../src/main/core/services/http-api';
import { openApiTools } from '../../../../src/main/core/services/openapi';
import { ServiceHttp, speakable } from '../../../../src/main/core/services/service-http';
import { ServerSettingsSchema, type ServiceSettings } from '../../../../src/shared/settings';
import { echoingService } from './echoing-service';
import { testContext } from './service-harness';

/** Requests to a web service and their answers: descriptions, empty answers, long errors, redirects. */

const context = (platform: string) => testContext(platform);
const parse = (s: unknown) => ServerSettingsSchema.parse(s) as ServiceSettings;
const service = echoingService();

describe('requests to a web service and their answers', () => {
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
      parse({ name: 'w', transport: 'http-api', tools: [{ name: 't', method: 'POST', url: `${service.base}/empty` }] }) as never,
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
      servers: [{ url: service.base }],
      paths: { '/a': { get: { operationId: 'a' } } },
    };
    const docs = http.createServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: `${service.base.replace('127.0.0.1', 'localhost')}/spec` });
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
    service.server.removeAllListeners('request');
    service.server.on('request', (_req, res: http.ServerResponse) => {
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
