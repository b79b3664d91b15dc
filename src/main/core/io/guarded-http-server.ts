import http from 'node:http';

import type { RefusalLog } from '../logs/refusal-log';

export interface HttpLimits {
  /** How long a client may take to send its headers (default 10 s; Node's own is a minute). */
  headersTimeoutMs?: number | undefined;
  /** How long it may take to send its whole request (default 60 s; the answer is not bounded). */
  requestTimeoutMs?: number | undefined;
  /** How long its body may take once the headers are in (default: as long as the headers may). */
  bodyTimeoutMs?: number | undefined;
  /** Connections open at once (WebSockets included) past which new ones are dropped. */
  maxConnections: number;
}

/**
 * An HTTP server on our loopback ports that anyone on the machine (or any web page) can reach:
 * a connection that dribbles its headers a byte at a time is answered 408 and closed after
 * `headersTimeoutMs` (checked every half of it, so within 1.5 times), one that dribbles its body
 * is answered 408 (when nothing was answered yet) and closed after `bodyTimeoutMs`, an answer
 * given before the body came in (a refusal: send it with `Connection: close`) closes its
 * connection rather than drain the rest, and past
 * `maxConnections` new connections are dropped and counted in `refusals` as `dropped`.
 */
export function guardedHttpServer(limits: HttpLimits, refusals: RefusalLog, dropped: string, handler: http.RequestListener): http.Server {
  const headersTimeout = limits.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(headersTimeout, limits.requestTimeoutMs ?? 60_000);
  const bodyTimeout = limits.bodyTimeoutMs ?? headersTimeout;
  const server = http.createServer(
    { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(50, headersTimeout / 2)) },
    (req, res) => {
      guardBody(req, res, bodyTimeout);
      handler(req, res);
    },
  );
  server.keepAliveTimeout = 5000;
  // Each connection holds a file descriptor and memory: a program opening thousands would exhaust
  // them (and no server could be spawned any more).
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => refusals.add(dropped));
  return server;
}

/** How long a closed connection may still take to read its answer before it is cut. */
const CLOSE_GRACE_MS = 2000;

/**
 * Node drains a body nobody reads for as long as it comes, and gives a request a minute: with the
 * connection caps, a few hundred bodies sent a byte every few seconds would lock every client out.
 */
function guardBody(req: http.IncomingMessage, res: http.ServerResponse, bodyTimeout: number): void {
  const close = () => {
    const socket = req.socket;
    // Ended, not destroyed: a reset would lose the answer still on its way; cut after a grace.
    socket.end();
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  };
  const timer = setTimeout(() => {
    if (req.complete) return;
    if (res.headersSent) close();
    else res.writeHead(408, { 'Content-Type': 'text/plain', Connection: 'close' }).end('The request body did not arrive in time');
  }, bodyTimeout);
  timer.unref();
  res.once('close', () => clearTimeout(timer));
  res.once('finish', () => {
    clearTimeout(timer);
    if (!req.complete) close();
  });
}

/** The request target as a URL; undefined for one no client sends (`http://[`, a port past 65535). */
export function requestTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://local');
  } catch {
    return undefined;
  }
}
