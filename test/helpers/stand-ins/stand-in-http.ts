import type http from 'node:http';

/** One request as a platform stand-in reads it: the path below the platform's prefix, the JSON body parsed. */
export interface StandInRequest {
  method: string;
  /** Below the platform's prefix (`/ha/api/states` → `/api/states`). */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** The raw socket's response, for answers written over time (event streams) or cut (a proxy's timeout). */
  res: http.ServerResponse;
}

export const json = (res: http.ServerResponse, status: number, value: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

export const text = (res: http.ServerResponse, status: number, value: string, type = 'text/plain; charset=utf-8'): void => {
  res.writeHead(status, { 'content-type': type });
  res.end(value);
};

/** An answer with no body at all (n8n's "no response body"). */
export const empty = (res: http.ServerResponse, status = 200): void => {
  res.writeHead(status, { 'content-length': '0' });
  res.end();
};

export const bearer = (req: StandInRequest, secret: string): boolean => req.headers.authorization === `Bearer ${secret}`;

export const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A text/event-stream answer, written event by event; `done` ends it. */
export function eventStream(res: http.ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return {
    write: (lines: string) => res.write(`${lines}\n\n`),
    done: (): void => void res.end(),
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A proxy that gives up on a request it has waited `ms` for: the connection is dropped without an answer. */
export function cutAfter(res: http.ServerResponse, ms: number): void {
  setTimeout(() => res.socket?.destroy(), ms);
}
