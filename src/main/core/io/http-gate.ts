import { hash, timingSafeEqual } from 'node:crypto';

/**
 * The gate both loopback HTTP servers (the local MCP server, the web UI) put before everything
 * else: the Host a request names, the page it comes from (Origin) and its token. Anything on this
 * machine, and any web page the user opens, can reach their ports. A page on evil.example whose
 * name is made to resolve to 127.0.0.1 (DNS rebinding) still sends its own Host and Origin: only
 * names of this server pass. Names are compared as a URL parser reads them (lower case, one
 * trailing dot, IPv6 in brackets, IPv4 written any way, port 80 when none is given), never as text.
 */

/** Where a server listens: the address it was bound to, and its port. */
export interface Bound {
  host: string;
  port: number;
}

export const isWildcardHost = (host: string): boolean => host === '0.0.0.0' || host === '::';

/** `host:port` as a Host header or URL writes it (IPv6 in brackets). */
export function hostWithPort(host: string, port: number): string {
  return `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** A Host header's shape: a name (letters, digits, `.`, `-`, `_`) or an IPv6 address in brackets, and maybe a port. */
const HOST_HEADER = /^(?:[\w.-]+|\[[0-9a-f:.]+\])(?::\d*)?$/i;

/** A name or address as URLs compare it: `LOCALHOST.` → `localhost`, `127.1` → `127.0.0.1`, `::1` → `[::1]`. */
function parseHost(text: string): { name: string; port: number } | undefined {
  if (!HOST_HEADER.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${text}/`);
  } catch {
    return undefined;
  }
  // `localhost.` is `localhost`, fully qualified (an IPv4 address loses its dot in the parser already).
  const name = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  return { name, port: url.port === '' ? 80 : Number(url.port) };
}

/** A bound address or configured host, in the same form: bare IPv6 gets its brackets. */
function hostName(host: string): string | undefined {
  return parseHost(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)?.name;
}

/** localhost, 127.0.0.0/8 or ::1, however written. */
export function isLoopbackHost(host: string): boolean {
  const name = hostName(host);
  return name !== undefined && isLoopbackName(name);
}

const isLoopbackName = (name: string): boolean => name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);

/**
 * The Host header must name this server: a loopback name (or the address it was bound to) and its
 * port. Bound to every interface (the user's explicit choice), any name with the right port passes.
 */
export function hostAllowed(header: string | undefined, bound: Bound): boolean {
  const parsed = header === undefined ? undefined : parseHost(header.trim());
  if (!parsed || parsed.port !== bound.port) return false;
  if (isWildcardHost(bound.host)) return true;
  return isLoopbackName(parsed.name) || parsed.name === hostName(bound.host);
}

/**
 * Which pages may talk to a server. `loopback`: programs (Cursor, VS Code, `connect`) send no Origin
 * and pass; a page may come from a loopback origin on any port (a local tool such as the MCP
 * Inspector) or from the bound address. `same-origin`: only a page this server served, at the Host
 * the request names; no Origin at all is refused (the web UI's API is for its own page).
 */
export type OriginRule = 'loopback' | 'same-origin';

export function originAllowed(origin: string | undefined, hostHeader: string | undefined, bound: Bound, rule: OriginRule): boolean {
  if (origin === undefined) return rule === 'loopback';
  const page = parseOrigin(origin);
  if (!page) return false;
  if (rule === 'same-origin') {
    const host = hostHeader === undefined ? undefined : parseHost(hostHeader.trim());
    return page.scheme === 'http:' && host !== undefined && page.name === host.name && page.port === host.port;
  }
  return isLoopbackName(page.name) || (!isWildcardHost(bound.host) && page.name === hostName(bound.host));
}

/** An Origin header: `scheme://host[:port]` and nothing more (`null`, paths and other schemes are not one). */
function parseOrigin(origin: string): { scheme: string; name: string; port: number } | undefined {
  const match = /^(https?):\/\/([^/?#@]+)\/?$/i.exec(origin.trim());
  if (!match) return undefined;
  const scheme = `${(match[1] as string).toLowerCase()}:`;
  const parsed = parseHost(match[2] as string);
  if (!parsed) return undefined;
  // parseHost counts a missing port as 80; an https page without one is on 443.
  const port = scheme === 'https:' && !/:\d+$/.test(match[2] as string) ? 443 : parsed.port;
  return { scheme, name: parsed.name, port };
}

/**
 * Two secrets compared in constant time, whatever their lengths: their SHA-256 digests are, so
 * neither where they first differ nor how long the expected one is shows in the time taken.
 */
export function secretsEqual(given: string, expected: string | Buffer): boolean {
  return timingSafeEqual(secretDigest(given), typeof expected === 'string' ? secretDigest(expected) : expected);
}

/**
 * What `secretsEqual` compares: a server checking every request against one token keeps its digest.
 * One-shot (`crypto.hash`, the UTF-8 of a string): a Hash object per request cost three times as much.
 */
export function secretDigest(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/** `Authorization: Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string | Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && secretsEqual(match[1] as string, token);
}
