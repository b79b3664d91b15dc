import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

import { type Problem, problem } from '../../../shared/problem';

/**
 * Turns a foreign failure (a Node, undici, ws or SDK error, with its `cause` chain) into a code with
 * parameters the UI words in either language, and a one-line English text that says what really
 * failed ("fetch failed" alone says nothing). Our own failures are problems from the start
 * (`server-problems.ts`): nothing here reads our own text back.
 */

interface Link {
  message: string;
  code?: string | number;
  hostname?: string;
  address?: string;
  port?: number;
}

function chain(error: unknown): Link[] {
  const links: Link[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    if (current instanceof Error) {
      const e = current as Error & { code?: unknown; hostname?: unknown; address?: unknown; port?: unknown };
      links.push({
        message: e.message,
        ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: e.code } : {}),
        ...(typeof e.hostname === 'string' ? { hostname: e.hostname } : {}),
        ...(typeof e.address === 'string' ? { address: e.address } : {}),
        ...(typeof e.port === 'number' ? { port: e.port } : {}),
      });
      current = e.cause;
    } else {
      links.push({ message: String(current) });
      break;
    }
  }
  return links;
}

/** Every message of the chain once, outermost first: "fetch failed: getaddrinfo ENOTFOUND example.invalid". */
export function failureText(error: unknown): string {
  const parts: string[] = [];
  for (const link of chain(error)) {
    const message = link.message.split('\n')[0]?.trim() ?? '';
    if (message && !parts.some((p) => p.includes(message))) parts.push(message);
  }
  return parts.join(': ') || 'unknown error';
}

const TLS = /\b(CERT_|ERR_TLS|ERR_SSL|EPROTO|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY)|certificate|SSL routines|TLS/i;

function where(links: Link[], url: string | undefined): { host: string; port: string } {
  let host = links.find((l) => l.hostname)?.hostname ?? links.find((l) => l.address)?.address ?? '';
  let port = String(links.find((l) => l.port !== undefined)?.port ?? '');
  if (url) {
    try {
      const parsed = new URL(url);
      host ||= parsed.hostname;
      port ||= parsed.port || (parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? '443' : '80');
    } catch {
      // not a URL: keep what the error said
    }
  }
  return { host, port };
}

/** The cause of a failure to reach or run something; `url` is where we were going, when known. */
export function failureCause(error: unknown, context: { url?: string; command?: string } = {}): Problem {
  const links = chain(error);
  const text = links.map((l) => `${l.message} ${l.code ?? ''}`).join(' ');
  const codes = links.map((l) => String(l.code ?? ''));
  const has = (pattern: RegExp) => codes.some((c) => pattern.test(c)) || pattern.test(text);
  const { host, port } = where(links, context.url);

  const status = Number(
    codes.find((c) => /^[1-5]\d\d$/.test(c)) ?? /(?:HTTP|status code|server response:?)\s*\(?(\d{3})\)?/i.exec(text)?.[1] ?? NaN,
  );
  if (status === 401) return problem('http.unauthorized', { status });
  if (status === 403) return problem('http.forbidden', { status });
  if (status === 404) return problem('http.notFound', { status });
  if (Number.isInteger(status)) return problem('http.status', { status });

  const spawn = /spawn (\S+) ENOENT/.exec(text);
  if (spawn || (has(/\bENOENT\b/) && context.command)) return problem('server.notFound', { command: context.command ?? spawn?.[1] ?? '' });
  if (has(/\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME)\b/)) return problem('net.dns', { host });
  if (has(/\bECONNREFUSED\b/)) return problem('net.refused', { host, port });
  if (TLS.test(text)) return problem('net.tls', { host, detail: tlsDetail(text) });
  if (has(/\b(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|ESOCKETTIMEDOUT)\b|handshake has timed out|timed out/i))
    return problem('net.timeout', { host });
  if (has(/\b(ECONNRESET|EPIPE)\b|socket hang up|other side closed/i)) return problem('net.reset', { host });
  if (has(/\b(EHOSTUNREACH|ENETUNREACH|ENETDOWN|EADDRNOTAVAIL)\b/)) return problem('net.unreachable', { host });

  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return problem('server.closed');
  return problem('other', { detail: failureText(error) });
}

function tlsDetail(text: string): string {
  if (/expired/i.test(text)) return 'expired';
  if (/self[- ]signed/i.test(text)) return 'self-signed';
  if (/altname|hostname/i.test(text)) return 'name';
  if (/wrong version number|EPROTO/i.test(text)) return 'not-tls';
  return 'other';
}
