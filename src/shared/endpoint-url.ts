/**
 * An endpoint URL as people paste it: copied from the xiaozhi console, a chat, a README, a shell
 * line or a JSON file, it often brings quotes, a `MCP_ENDPOINT=` prefix, a line break where a
 * terminal wrapped it, or a trailing `"`. What is surely debris is removed (and said); what cannot
 * be told apart from the address is refused with the reason.
 */

import { z } from 'zod';

/** What was taken off the paste. */
export const EndpointUrlDebrisSchema = z.enum(['quotes', 'prefix', 'lineBreaks', 'invisible', 'punctuation']);
export type EndpointUrlDebris = z.infer<typeof EndpointUrlDebrisSchema>;

/** Why a paste is not an endpoint URL. */
export const EndpointUrlRefusalSchema = z.enum(['empty', 'spaces', 'extraText', 'several', 'scheme', 'invalid']);
export type EndpointUrlRefusal = z.infer<typeof EndpointUrlRefusalSchema>;

/** What the engine says of a pasted URL before it is added: what was taken off, why it is refused, or which endpoint it already is. */
export const EndpointUrlCheckSchema = z.object({
  removed: z.array(EndpointUrlDebrisSchema),
  refused: EndpointUrlRefusalSchema.optional(),
  /** The endpoint with the same address and token (its URL is not sent back: it holds the token). */
  sameAs: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type EndpointUrlCheck = z.infer<typeof EndpointUrlCheckSchema>;

export type CleanedEndpointUrl =
  { ok: true; url: string; removed: EndpointUrlDebris[] } | { ok: false; reason: EndpointUrlRefusal; removed: EndpointUrlDebris[] };

/** Characters a copy brings along unseen: a BOM, zero-width spaces and joiners, a word joiner. */
const INVISIBLE = /[\uFEFF\u200B-\u200D\u2060]/g;
/** Quotes and brackets around a paste, in ASCII and the forms Chinese input and word processors make. */
const QUOTES = `"'\`“”‘’「」『』<>（）()【】`;
/** Punctuation a sentence puts after an address; not `.` (part of a JWT), `=` (base64) or `/`. */
const TRAILING_PUNCTUATION = /[,;，；。、!！]+$/;
const SCHEME = /wss?:\/\//gi;

export interface CleanOptions {
  /**
   * A line break inside is joined (a paste a terminal wrapped) rather than refused. Only for what a
   * person pastes in front of them: in a file, `…token=abc\nExecStart=…` is no wrapped address.
   */
  joinLines?: boolean;
}

export function cleanEndpointUrl(raw: string, options: CleanOptions = {}): CleanedEndpointUrl {
  const removed = new Set<EndpointUrlDebris>();
  const refused = (reason: EndpointUrlRefusal): CleanedEndpointUrl => ({ ok: false, reason, removed: [...removed] });
  let text = raw.replace(INVISIBLE, '');
  if (text !== raw) removed.add('invisible');
  text = text.trim();
  // A terminal that wrapped the address put a line break (and maybe indentation) inside it.
  if (/[\r\n]/.test(text)) {
    if (!options.joinLines) return refused('spaces');
    text = text.replace(/[ \t]*[\r\n]+[ \t]*/g, '');
    removed.add('lineBreaks');
  }
  if (text === '') return refused('empty');
  if ((text.match(SCHEME) ?? []).length > 1) return refused('several');
  // Before the scheme: only quotes, or a label ending in `=` or a colon (`MCP_ENDPOINT=`,
  // `export MCP_ENDPOINT="`, `"mcpEndpoint": "`, `接入点地址：`).
  const start = text.search(SCHEME);
  if (start > 0) {
    const before = text.slice(0, start);
    const label = trimEnd(before, (c) => QUOTES.includes(c) || /\s/.test(c));
    if (label.length < before.length && QUOTES.split('').some((q) => before.slice(label.length).includes(q))) removed.add('quotes');
    const bare = trimEnd(label, (c) => QUOTES.includes(c));
    if (bare !== '') {
      if (!/[=:：]$/.test(bare) || bare.length > 60) return refused('extraText');
      removed.add('prefix');
    } else if (label !== '') removed.add('quotes');
    text = text.slice(start);
  }
  // Trailing quotes, commas and full stops, in any order (`…token=abc",`).
  for (;;) {
    const next = trimEnd(text, (c) => QUOTES.includes(c) || TRAILING_PUNCTUATION.test(c) || /\s/.test(c));
    if (next === text) break;
    const gone = text.slice(next.length);
    if (QUOTES.split('').some((q) => gone.includes(q))) removed.add('quotes');
    if (TRAILING_PUNCTUATION.test(gone.replace(/[\s"'`“”‘’」』>）)】]/g, ''))) removed.add('punctuation');
    text = next;
  }
  if (/\s/.test(text)) return refused(start < 0 ? 'invalid' : 'spaces');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused(start < 0 ? 'scheme' : 'invalid');
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return refused('scheme');
  if (!url.hostname) return refused('invalid');
  return { ok: true, url: text, removed: [...removed] };
}

/** `text` without the characters at its end that `drop` says to drop. */
function trimEnd(text: string, drop: (c: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

/**
 * What makes two URLs one endpoint: its host (lower case, without the default port, this machine's
 * names as one) and its token,
 * decoded (`%2B` and `+` as the relay's own URL writes it), else its path and query. `/mcp?token=`
 * and `/mcp/?token=` are one endpoint; two tokens on one host are two (two agents of a relay).
 */
export function endpointIdentity(raw: string): string {
  const cleaned = cleanEndpointUrl(raw);
  const text = cleaned.ok ? cleaned.url : raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  const host = `${sameHost(url.hostname)}${url.port ? `:${url.port}` : ''}`;
  const token = tokenOf(url);
  if (token !== undefined) return `${host} token ${token}`;
  const query = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${host}${url.pathname.replace(/\/+$/, '')}?${query.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/**
 * A host as one machine: DNS's trailing dot dropped, and every name of this machine (localhost,
 * 127.x.x.x, [::1]) one name, so a relay here pasted once as printed and once by hand is one endpoint.
 */
function sameHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host) ? 'localhost' : host;
}

/** The token as written, percent-decoded once (a `+` stays a `+`: the URL parser's own reading turns it into a space). */
function tokenOf(url: URL): string | undefined {
  const match = /[?&]token=([^&#]*)/.exec(url.search);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1] as string);
  } catch {
    return match[1];
  }
}

/** The first endpoint of `endpoints` (besides `except`) that is the same endpoint as `url`. */
export function sameEndpointAs<E extends { id: string; url: string }>(
  url: string,
  endpoints: readonly E[],
  except?: string,
): E | undefined {
  const identity = endpointIdentity(url);
  return endpoints.find((endpoint) => endpoint.id !== except && endpointIdentity(endpoint.url) === identity);
}

/**
 * An endpoint of `after` that is the same as an earlier one, where `before` did not have that pair:
 * a change must not add one (an old pair, saved before this was checked, does not block other changes).
 */
export function addedDuplicate<E extends { id: string; name: string; url: string }>(
  before: readonly E[],
  after: readonly E[],
): { endpoint: E; index: number; existing: E } | undefined {
  const pairs = (list: readonly E[]) => {
    const found: { endpoint: E; index: number; existing: E }[] = [];
    list.forEach((endpoint, index) => {
      const existing = sameEndpointAs(endpoint.url, list.slice(0, index));
      if (existing) found.push({ endpoint, index, existing });
    });
    return found;
  };
  const old = new Set(pairs(before).map(({ endpoint, existing }) => `${existing.id} ${endpoint.id} ${endpointIdentity(endpoint.url)}`));
  return pairs(after).find(({ endpoint, existing }) => !old.has(`${existing.id} ${endpoint.id} ${endpointIdentity(endpoint.url)}`));
}

/** An endpoint of xiaozhi.me (api.xiaozhi.me and its other hosts), as opposed to a self-hosted server. */
export function isXiaozhiMe(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    return host === 'xiaozhi.me' || host.endsWith('.xiaozhi.me');
  } catch {
    return false;
  }
}
