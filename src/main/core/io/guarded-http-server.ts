import http from 'node:http';
import type { RefusalLog } from '../logs/refusal-log';

export interface HttpLimits {
  /** How long a client may take to send its headers (default 10 s; Node's own is a minute). */
  headersTimeoutMs?: number | undefined;
  /** How long it may take to send its whole request (default 60 s; the answer is not bounded). */
  requestTimeoutMs?: number | undefined;
  /** Connections open at once (WebSockets included) past which new ones are dropped. */
  maxConnections: number;
}

/**
 * An HTTP server on our loopback ports that anyone on the machine (or any web page) can reach:
 * a connection that dribbles its headers a byte at a time is answered 408 and closed after
 * `headersTimeoutMs` (checked every half of it, so within 1.5 times), and past `maxConnections`
 * new connections are dropped and counted in `refusals` as `dropped`.
 */
export function guardedHttpServer(limits: HttpLimits, refusals: RefusalLog, dropped: string, handler: http.RequestListener): http.Server {
  const headersTimeout = limits.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(headersTimeout, limits.requestTimeoutMs ?? 60_000);
  const server = http.createServer(
    { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(50, headersTimeout / 2)) },
    handler,
  );
  server.keepAliveTimeout = 5000;
  // Each connection holds a file descriptor and memory: a program opening thousands would exhaust
  // them (and no server could be spawned any more).
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => refusals.add(dropped));
  return server;
}

/** The request target as a URL; undefined for one no client sends (`http://[`, a port past 65535). */
export function requestTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://local');
  } catch {
    return undefined;
  }
}
