import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { type RawData, type WebSocket, WebSocketServer } from 'ws';

import { type BridgeApi, type CommandName, commandNames, eventNames } from '../../../shared/bridge-api';
import { guardedHttpServer, requestTarget } from '../io/guarded-http-server';
import { hostAllowed, hostWithPort, isWildcardHost, originAllowed, secretsEqual } from '../io/http-gate';
import type { Logger } from '../logs/log-book';
import { RefusalLog } from '../logs/refusal-log';
import { staticFileFor, staticHeaders } from './static-files';

export interface WebUiOptions {
  api: BridgeApi;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 127.0.0.1 unless the user named another address explicitly. */
  host?: string;
  port?: number;
  token?: string;
  log: Logger;
  /** Refused connections after the first are counted and logged together once per this long (default a minute). */
  refusalLogMs?: number;
  /** How long a client may take to send its headers (tests shorten it). */
  headersTimeoutMs?: number;
  /** Connections open at once, WebSockets included (default 64: a few windows with a browser's 6 each). */
  maxConnections?: number;
}

export interface WebUi {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/**
 * The headless bridge's UI: serves the built renderer and carries the BridgeApi over a WebSocket
 * at /api. The API needs the random token from the printed URL and a same-origin page, and the
 * Host header must name this server (no DNS rebinding).
 */
export async function startWebUi(options: WebUiOptions): Promise<WebUi> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const root = path.resolve(options.rendererDir);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`The window is not built (${path.join(root, 'index.html')} is missing). Run: npm run build`);
  }
  // Its port once listening. On every interface (the user's explicit choice) any name passes the
  // Host check and the token still guards the API; otherwise only this server's own names do.
  const bound = { host, port: 0 };

  const refusals = new RefusalLog(options.log, options.refusalLogMs ?? 60_000, 'connection');
  const maxConnections = options.maxConnections ?? 64;
  const limits = { headersTimeoutMs: options.headersTimeoutMs, requestTimeoutMs: 30_000, maxConnections };
  const server = guardedHttpServer(
    limits,
    refusals,
    `web UI: refused a connection: ${maxConnections} are open, the most it takes`,
    (req, res) => {
      try {
        serveFile(req, res);
      } catch (error) {
        // Last line of defence: a request must never take the bridge down.
        options.log.warn(
          `web UI: failed to answer ${String(req.method).slice(0, 10)} request: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end();
      }
    },
  );

  const serveFile = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!hostAllowed(req.headers.host, bound)) {
      res.writeHead(421, { 'Content-Type': 'text/plain', Connection: 'close' }).end('Misdirected request');
      return;
    }
    // Refusals close their connection (the guard would otherwise drain a body for as long as it comes).
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', Connection: 'close' }).end();
      return;
    }
    const url = requestTarget(req.url);
    if (!url || !decodable(url.pathname)) {
      res.writeHead(400, { 'Content-Type': 'text/plain', Connection: 'close' }).end('Bad request');
      return;
    }
    // The page asks this when its WebSocket is refused: a browser cannot see the upgrade's 401, and
    // a token of a previous run must be said as that, not retried for ever. Says no more than the upgrade does.
    if (url.pathname === '/api/check') {
      const valid = secretsEqual(url.searchParams.get('token') ?? '', token);
      res.writeHead(valid ? 204 : 401, { 'Cache-Control': 'no-store' }).end();
      return;
    }
    const file = staticFileFor(root, url.pathname);
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, staticHeaders(file));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = fs.createReadStream(file);
    // A file removed or unreadable mid-response ends this response, not the process.
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const refuse = (status: number, why: string) => {
      refusals.add(`web UI: refused an API connection (${why})`);
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
    };
    const url = requestTarget(req.url);
    if (!url) return refuse(400, 'malformed request URL');
    if (url.pathname !== '/api') return refuse(404, 'unknown path');
    if (!hostAllowed(req.headers.host, bound)) return refuse(421, 'unexpected Host header');
    if (!originAllowed(req.headers.origin, req.headers.host, bound, 'same-origin'))
      return refuse(403, `foreign origin ${req.headers.origin ?? '(none)'}`);
    if (!secretsEqual(url.searchParams.get('token') ?? '', token)) return refuse(401, 'wrong or missing token');
    wss.handleUpgrade(req, socket, head, (ws) => serveApi(ws, options.api, options.log));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  bound.port = port;
  return {
    url: `http://${hostWithPort(isWildcardHost(host) ? '127.0.0.1' : host, port)}/#/overview?token=${token}`,
    port,
    token,
    close: async () => {
      refusals.flush();
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** False for paths that do not percent-decode (`/%C0`, `/%`): a bad request, not a missing file. */
function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** A window that stops reading must not make the bridge hold its events in memory without end. */
const MAX_UNSENT_BYTES = 16 * 1024 * 1024;
/** Windows are pinged this often; one that did not answer the last ping is gone (a closed lid). */
const API_PING_MS = 30_000;

function serveApi(ws: WebSocket, api: BridgeApi, log: Logger): void {
  const send = (message: unknown) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_UNSENT_BYTES) {
      // Closed first: the warning below is itself an event this window would be sent.
      ws.terminate();
      log.warn('web UI: a window stopped reading its updates; closed it (reloading the page reconnects)');
      return;
    }
    ws.send(JSON.stringify(message));
  };
  const unsubscribe = eventNames.map((event) => api.on(event, (payload) => send({ event, payload })));
  let alive = true;
  ws.on('pong', () => (alive = true));
  const pinger = setInterval(() => {
    if (!alive) {
      ws.terminate();
      return;
    }
    alive = false;
    ws.ping();
  }, API_PING_MS);
  pinger.unref();
  ws.on('close', () => {
    clearInterval(pinger);
    unsubscribe.forEach((off) => off());
  });
  ws.on('error', () => undefined);
  // Every failure of a command is answered to the page (an error reply), so the listener drops the promise.
  ws.on('message', (data) => void answer(data));
  async function answer(data: RawData): Promise<void> {
    let request: unknown;
    try {
      request = JSON.parse(data.toString());
    } catch {
      log.warn('web UI: dropped a message that is not JSON');
      return;
    }
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      log.warn('web UI: dropped a message that is not a command object');
      return;
    }
    const { id: rawId, command, input } = request as { id?: unknown; command?: unknown; input?: unknown };
    const id = typeof rawId === 'number' && Number.isSafeInteger(rawId) ? rawId : -1;
    if (!commandNames.includes(command as CommandName)) {
      send({ id, error: `Unknown command ${JSON.stringify(command)?.slice(0, 100)}` });
      return;
    }
    try {
      const output = await (api[command as CommandName] as (i: unknown) => Promise<unknown>)(input);
      // An undefined output (void commands) is simply left out of the JSON.
      send({ id, output });
    } catch (error) {
      send({ id, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
