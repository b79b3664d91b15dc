import { timingSafeEqual } from 'node:crypto';

/**
 * What the local MCP server checks before a request reaches the SDK's transport. The MCP spec asks
 * servers on localhost to validate Origin and Host against DNS rebinding: a page on evil.example
 * whose name resolves to 127.0.0.1 still sends its own Host and Origin, and is refused here.
 */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export const isLoopbackHost = (host: string): boolean => LOOPBACK_NAMES.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);

export const isWildcardHost = (host: string): boolean => host === '0.0.0.0' || host === '::';

/** `host:port` as a Host header or URL writes it (IPv6 in brackets). */
export function hostWithPort(host: string, port: number): string {
  return `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** Splits a Host header into its name and port; undefined when it is not one. */
function parseHostHeader(header: string): { name: string; port: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d{1,5})$/i.exec(header.trim());
  if (!match) return undefined;
  return { name: (match[1] as string).toLowerCase(), port: Number(match[2]) };
}

/**
 * The Host header must name this server: a loopback name (or the address it was bound to) and its
 * port. Bound to every interface (the user's explicit choice), any name with the right port passes.
 */
export function hostAllowed(header: string | undefined, bound: { host: string; port: number }): boolean {
  if (!header) return false;
  const parsed = parseHostHeader(header);
  if (!parsed || parsed.port !== bound.port) return false;
  if (isWildcardHost(bound.host)) return true;
  const boundName = bound.host.includes(':') && !bound.host.startsWith('[') ? `[${bound.host.toLowerCase()}]` : bound.host.toLowerCase();
  return isLoopbackHost(parsed.name) || parsed.name === boundName;
}

/**
 * Programs (Cursor, VS Code, `connect`) send no Origin; a browser page does. A page may talk to us
 * only from a loopback origin (a local tool such as the MCP Inspector) or the bound address.
 */
export function originAllowed(origin: string | undefined, bound: { host: string }): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return isLoopbackHost(url.hostname) || (!isWildcardHost(bound.host) && url.hostname.toLowerCase() === bound.host.toLowerCase());
}

/** `Authorization: Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1] as string);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
