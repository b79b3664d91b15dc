import { once } from 'node:events';
import http from 'node:http';

import { describe, expect, it } from 'vitest';

import { spokenServiceError } from '../../../../src/main/core/hub/spoken-error';
import { httpApiTools } from '../../../../src/main/core/services/http-api';
import { ServiceHttp } from '../../../../src/main/core/services/service-http';
import { ServerSettingsSchema, type ServiceSettings } from '../../../../src/shared/settings';
import { echoingService } from './echoing-service';
import { testContext } from './service-harness';

/** What the model hears from a web service that failed: worded, never a code or an English detail. */

const context = (platform: string) => testContext(platform);
const parse = (s: unknown) => ServerSettingsSchema.parse(s) as ServiceSettings;
const service = echoingService();

describe('what the model hears', () => {
  it('words an answer over 8 MB, not as the code "server.answerTooBig"', async () => {
    const [tool] = httpApiTools(
      parse({ name: 'w', transport: 'http-api', tools: [{ name: 't', url: `${service.base}/huge` }] }) as never,
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

describe('what the model hears, worded', () => {
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
    const tool = { url: `${service.base}/echo`, headers: { 'X-City': '{city}' } };
    for (const city of ['北京', 'a\r\nX-Injected: 1'])
      expect(await failure(tool, { city })).toBe('w was not asked: the header X-City can only hold plain Latin text, on one line');
    expect(service.seen).toEqual([]);
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
