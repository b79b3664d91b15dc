import { MASK_MARKER } from '../../../shared/masked';
import type { Problem } from '../../../shared/problem';
import { isMcpServer, type McpServerSettings, type ServerSettings, type Settings } from '../../../shared/settings';
import {
  decodeURIComponentSafe,
  looksSecret,
  maskArgs,
  maskSecret,
  maskValue,
  redactRecord,
  redactText,
  redactUrl,
  secretArgValues,
  secretQueryValues,
  urlPassword,
} from '../logs/redact';
import { maskService, restoreMaskedService, serviceSecretValues } from './service-secrets';

const optional = (value: string | undefined): string[] => (value === undefined ? [] : [value]);

/** The secrets one server's settings hold: env and header values by name, URL queries, options. */
function serverSecrets(server: ServerSettings): string[] {
  if (!isMcpServer(server)) return serviceSecretValues(server);
  const values: string[] = [];
  const record = server.transport === 'stdio' ? server.env : server.headers;
  for (const [key, value] of Object.entries(record)) {
    if (looksSecret(key)) values.push(value.replace(/^(bearer|basic|token)\s+/i, ''));
    else values.push(...optional(urlPassword(value)));
  }
  if (server.transport === 'stdio') values.push(...secretArgValues(server.args));
  else values.push(...secretQueryValues(server.url), ...optional(urlPassword(server.url)), ...optional(server.oauth?.clientSecret));
  return values;
}

/** A part of an address that reads as a token, not a word: long, of a token's characters, letters and digits both. */
const looksLikeToken = (part: string): boolean => part.length >= 16 && /^[\w.~+=-]+$/.test(part) && /\d/.test(part) && /[a-z]/i.test(part);

/**
 * The secrets an endpoint's URL holds: its token (a query or fragment value named so, or any long
 * one; a path segment or a user name that reads as one) and a password.
 */
export function endpointUrlSecrets(url: string): string[] {
  const values: string[] = [];
  try {
    const parsed = new URL(url);
    const fragment = parsed.hash.slice(1);
    for (const [key, value] of [...parsed.searchParams, ...(fragment.includes('=') ? new URLSearchParams(fragment) : [])])
      if (looksSecret(key) || value.length > 16) values.push(value);
    for (const part of [...parsed.pathname.split('/'), fragment, parsed.username])
      if (looksLikeToken(decodeURIComponentSafe(part))) values.push(decodeURIComponentSafe(part));
    values.push(...optional(urlPassword(url)));
  } catch {
    // invalid URLs never got past the schema
  }
  return values;
}

/**
 * Every secret value in the settings (and the bridge's own environment), so that one redaction
 * pass can mask them wherever they appear: logs, status, history, errors.
 */
export function secretValues(settings: Settings, env: NodeJS.ProcessEnv = {}): string[] {
  const values: string[] = [];
  for (const endpoint of settings.endpoints) values.push(...endpointUrlSecrets(endpoint.url));
  for (const server of settings.servers) values.push(...serverSecrets(server));
  if (settings.modelscope.apiKey) values.push(settings.modelscope.apiKey);
  // The chat model's key ("Try a sentence", sampling by voice).
  if (settings.model?.apiKey) values.push(settings.model.apiKey);
  if (env.MODELSCOPE_API_TOKEN) values.push(env.MODELSCOPE_API_TOKEN);
  if (env.MCP_ENDPOINT) values.push(...secretQueryValues(env.MCP_ENDPOINT.trim()));
  if (settings.localServer.token) values.push(settings.localServer.token);
  // The person's confirmation PIN: a model that read it anywhere (a log, the history) could confirm by itself.
  if (settings.confirmation.pin !== undefined) values.push(settings.confirmation.pin);
  return values.filter((v) => v.length >= 4);
}

/**
 * Whether the settings hold a secret, by name (secretValues) or by its look as redaction knows it
 * (a bearer token in a header or env value of any name, a token in an endpoint's path, a known key
 * format): what a file others can read must not hold.
 */
export function holdsSecrets(settings: Settings): boolean {
  if (secretValues(settings).length > 0) return true;
  const text = JSON.stringify(settings);
  return redactText(text) !== text;
}

/** A server as a UI may see it: secret env/header values, URL queries and options masked. */
export function maskServer<T extends ServerSettings>(server: T): T {
  if (!isMcpServer(server)) return maskService(server) as T;
  return server.transport === 'stdio'
    ? { ...server, env: redactRecord(server.env), args: maskArgs(server.args) }
    : {
        ...server,
        headers: redactRecord(server.headers),
        url: redactUrl(server.url),
        ...(server.oauth ? { oauth: maskOAuth(server.oauth) } : {}),
      };
}

type OAuthSettings = NonNullable<Extract<McpServerSettings, { transport: 'sse' | 'streamable-http' }>['oauth']>;

/** A sign-in client's secret, masked like a header's. */
const maskOAuth = (oauth: OAuthSettings): OAuthSettings =>
  oauth.clientSecret === undefined ? oauth : { ...oauth, clientSecret: maskSecret(oauth.clientSecret) };

/** The settings as a UI may see them: tokens and secret values masked. */
export function redactSettings(settings: Settings): Settings {
  const copy = structuredClone(settings);
  copy.endpoints = copy.endpoints.map((e) => ({ ...e, url: redactUrl(e.url) }));
  copy.servers = copy.servers.map(maskServer);
  if (copy.modelscope.apiKey) copy.modelscope.apiKey = maskSecret(copy.modelscope.apiKey);
  if (copy.model?.apiKey) copy.model.apiKey = maskSecret(copy.model.apiKey);
  // The window asks for the local server's token by its own command, when the user wants it.
  if (copy.localServer.token) copy.localServer.token = maskSecret(copy.localServer.token);
  // Not even masked (a mask would give away its length): the window asks for it by its own command.
  delete copy.confirmation.pin;
  return copy;
}

/** A UI edits the masked copy: where a value comes back still masked, keep the real one. */
export function restoreMasked(incoming: Record<string, string>, existing: Record<string, string> | undefined): Record<string, string> {
  const out = nameRecord<string>();
  for (const [key, value] of Object.entries(incoming)) {
    const previous = own(existing, key);
    out[key] = previous !== undefined && value === maskValue(key, previous) && value !== previous ? previous : value;
  }
  return out;
}

const MASKED = MASK_MARKER;

/**
 * A URL the window sent back: query values and credentials it got masked take the existing URL's
 * values of the same name, whatever else changed (the host, another parameter).
 */
export function restoreMaskedUrl(incoming: string, existing: string | undefined): string {
  if (existing === undefined || incoming === existing) return incoming;
  if (incoming === redactUrl(existing)) return existing;
  let before: URL;
  let head: URL;
  const at = incoming.indexOf('?');
  try {
    before = new URL(existing);
    head = new URL(at === -1 ? incoming : incoming.slice(0, at));
  } catch {
    return incoming;
  }
  const shownPassword = decodeURIComponent(head.password);
  if (before.password && shownPassword === maskSecret(decodeURIComponent(before.password))) head.password = before.password;
  const pairs = (at === -1 ? '' : incoming.slice(at + 1))
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      const previous = before.searchParams.get(key);
      return previous !== null && pair.slice(eq + 1) === maskSecret(previous) ? `${key}=${encodeURIComponent(previous)}` : pair;
    });
  head.search = '';
  return pairs.length > 0 ? `${head.toString()}?${pairs.join('&')}` : head.toString();
}

/** Masked arguments take their real values: at the same place first, else the one they can only be. */
function restoreArgs(incoming: string[], existing: string[]): string[] {
  const shown = maskArgs(existing);
  return incoming.map((arg, i) => {
    if (shown[i] === arg && arg !== existing[i]) return existing[i] as string;
    const reals = new Set(shown.flatMap((s, j) => (s === arg && s !== existing[j] ? [existing[j] as string] : [])));
    if (reals.size === 1) return [...reals][0] as string;
    if (reals.size > 1) throw new Error(`args[${i}] is still masked and could be more than one of the secrets it had; type it again`);
    return arg.includes(MASKED) && existing[i] !== undefined ? restoreMaskedUrl(arg, existing[i]) : arg;
  });
}

/** A value still masked after restoring would be saved as the literal mask: refuse it, saying where. */
function refuseMasks(server: McpServerSettings): ServerSettings {
  const values: [string, string][] =
    server.transport === 'stdio'
      ? [
          ...server.args.map((a, i): [string, string] => [`args[${i}]`, a]),
          ...Object.entries(server.env).map(([k, v]): [string, string] => [`env.${k}`, v]),
        ]
      : [
          ['url', server.url],
          ...Object.entries(server.headers).map(([k, v]): [string, string] => [`headers.${k}`, v]),
          ...(server.oauth?.clientSecret !== undefined ? [['oauth.clientSecret', server.oauth.clientSecret] as [string, string]] : []),
        ];
  const masked = values.find(([, value]) => value.includes(MASKED));
  if (masked) throw new Error(`${masked[0]} of server "${server.name}" is still masked; type its value again`);
  return server;
}

/** The same for a whole server: env, headers, URL and arguments that come back masked keep their real values. */
export function restoreMaskedServer(incoming: ServerSettings, existing: ServerSettings | undefined): ServerSettings {
  if (!isMcpServer(incoming)) return restoreMaskedService(incoming, existing && !isMcpServer(existing) ? existing : undefined);
  if (incoming.transport === 'stdio') {
    const before = existing?.transport === 'stdio' ? existing : undefined;
    return refuseMasks({
      ...incoming,
      env: restoreMasked(incoming.env, before?.env),
      args: before ? restoreArgs(incoming.args, before.args) : incoming.args,
    });
  }
  const before = existing && (existing.transport === 'sse' || existing.transport === 'streamable-http') ? existing : undefined;
  const secret = incoming.oauth?.clientSecret;
  const keptSecret =
    secret !== undefined && before?.oauth?.clientSecret !== undefined && secret === maskSecret(before.oauth.clientSecret)
      ? before.oauth.clientSecret
      : secret;
  return refuseMasks({
    ...incoming,
    headers: restoreMasked(incoming.headers, before?.headers),
    url: restoreMaskedUrl(incoming.url, before?.url),
    ...(incoming.oauth ? { oauth: { ...incoming.oauth, ...(keptSecret !== undefined ? { clientSecret: keptSecret } : {}) } } : {}),
  });
}

import { nameRecord, own } from '../../../shared/own';
import { redactProblem } from '../logs/redact';

export { redactProblem };

/**
 * A server's or an endpoint's failure as the window sees it: its text, its problem's parameters and
 * the cause read from its own words (a path it names) redacted.
 */
export function redactFailure<T extends { lastError?: string; lastErrorCause?: Problem; cause?: Problem }>(
  status: T,
  redact: (text: string) => string,
): T {
  return {
    ...status,
    ...(status.lastError !== undefined ? { lastError: redact(status.lastError) } : {}),
    ...(status.lastErrorCause ? { lastErrorCause: redactProblem(status.lastErrorCause, redact) } : {}),
    ...(status.cause ? { cause: redactProblem(status.cause, redact) } : {}),
  };
}
