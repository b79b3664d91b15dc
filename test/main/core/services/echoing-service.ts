import { once } from 'node:events';
import http from 'node:http';

import { afterEach, beforeEach } from 'vitest';

/**
 * A web service on 127.0.0.1 for each test: `/huge` answers 9 MB of JSON, `/empty` a 204, `/echo…`
 * what it was sent (URL, headers, body), `/refuse…` the same as a 401's message; anything else
 * `{"ok":true}`. `seen` holds the paths asked this test; `server` can be given
 * other answers.
 */
export function echoingService(): { readonly base: string; readonly seen: string[]; readonly server: http.Server } {
  let server = http.createServer();
  const state = {
    base: '',
    seen: [] as string[],
    get server() {
      return server;
    },
  };
  beforeEach(async () => {
    state.seen.length = 0;
    server = http.createServer((req, res) => {
      state.seen.push(req.url ?? '');
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
    state.base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterEach(async () => {
    server.close();
    await once(server, 'close');
  });
  return state;
}
