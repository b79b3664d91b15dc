import { describe, expect, it } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import { serviceSecretValues } from '../../../../src/main/core/secrets/service-secrets';
import { ServiceServer } from '../../../../src/main/core/services/service-server';
import { ServerSettingsSchema, type ServiceSettings } from '../../../../src/shared/settings';
import { echoingService } from './echoing-service';

/** A web service's secrets never reach the model, even when the platform echoes them back. */

const parse = (s: unknown) => ServerSettingsSchema.parse(s) as ServiceSettings;
const service = echoingService();

describe('secrets the model must not hear', () => {
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
        { name: 'wx', url: `${service.base}/refuse?access_token=URLTOKEN_SECRET_999`, query: { appid: 'APPID_SECRET_777', q: '{city}' } },
        {
          name: 'tg',
          method: 'POST',
          url: `${service.base}/refuse/bot123456:TELEGRAM_SECRET_AAA/send`,
          body: { api_key: 'BODY_SECRET_555', text: '{text}' },
        },
        {
          name: 'echo',
          method: 'POST',
          url: `${service.base}/echo?appid=APPID_SECRET_777`,
          body: { api_key: 'BODY_SECRET_555', text: '{text}' },
        },
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
    const server = await serve({
      name: 'n',
      transport: 'n8n',
      url: `${service.base}/echo`,
      headers: { 'X-Key': 'n8n-SECRET-1' },
      tool: 't',
    });
    const answer = JSON.stringify(await server.callTool('t', {}, {}));
    expect(answer).toMatch(/x-key/);
    expect(answer).not.toContain('n8n-SECRET-1');
    await server.stop();
  });
});
