import { once } from 'node:events';
import http from 'node:http';

import { describe, expect, it } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import { homeAssistantTools } from '../../../../src/main/core/services/home-assistant';
import { ServiceServer } from '../../../../src/main/core/services/service-server';
import { ServerSettingsSchema, type ServiceSettings } from '../../../../src/shared/settings';
import { echoingService } from './echoing-service';
import { testContext } from './service-harness';

/** A web service's setup: a refused token seen at start, tools left out said with why. */

const context = (platform: string) => testContext(platform);
const parse = (s: unknown) => ServerSettingsSchema.parse(s) as ServiceSettings;
const service = echoingService();

describe('a wrong token service.seen at start', () => {
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

describe('tools a service leaves out', () => {
  it('says which and why, with a problem the window words, and shows them in the status', async () => {
    const book = new LogBook();
    const server = new ServiceServer({
      settings: parse({
        name: 'w',
        transport: 'http-api',
        tools: [
          { name: 't', url: `${service.base}/x` },
          { name: 't', url: `${service.base}/y` },
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
