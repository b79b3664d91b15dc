import { MASK_MARKER } from '../../../shared/masked';
import type { ServiceSettings } from '../../../shared/settings';
import { looksSecret, maskSecret, urlPassword } from '../logs/redact';

/** What to do with one secret of a service, told where it stands (`token`, `headers.X-Key`, `tools[0].query.key`). */
type SecretFn = (value: string, where: string) => string;

/**
 * Names that hold a web API's secret beyond the usual ones: OpenWeatherMap's `appid`, signed
 * requests' `sign`, `access_key`/`appkey` of Chinese platforms.
 */
const SERVICE_SECRET_NAME = /^(app[-_]?id|app[-_]?key|app[-_]?secret|sign|access[-_]?key)$/i;
const looksServiceSecret = (name: string) => looksSecret(name) || SERVICE_SECRET_NAME.test(name);

const mapRecord = (record: Record<string, string>, at: string, fn: SecretFn, all: boolean) =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, all || looksServiceSecret(k) ? fn(v, `${at}.${k}`) : v]));

/** A token written into a URL: a secret-named query value, a password, a long token-like path segment (Telegram's `/bot<token>/`). */
function urlSecrets(raw: string | undefined): string[] {
  if (!raw) return [];
  let url: URL;
  try {
    url = new URL(raw, 'http://relative.invalid');
  } catch {
    return [];
  }
  const query = [...url.searchParams].filter(([name, value]) => looksServiceSecret(name) && !/^\{[^{}]*\}$/.test(value)).map(([, v]) => v);
  const path = url.pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment; // not UTF-8 once decoded: kept as written
      }
    })
    .filter((segment) => segment.length >= 20 && /\d/.test(segment) && /[a-z]/i.test(segment) && !segment.includes('{'));
  return [...query, ...path, ...[urlPassword(raw)].filter((p): p is string => p !== undefined)];
}

/** String values of a body template under secret-looking keys (`"api_key": "…"`), a placeholder aside. */
function bodySecrets(template: unknown, found: string[] = [], depth = 0): string[] {
  if (depth > 32 || typeof template !== 'object' || template === null) return found;
  for (const [key, value] of Object.entries(template)) {
    if (typeof value === 'string' && !Array.isArray(template) && looksServiceSecret(key) && !/^\{[^{}]*\}$/.test(value)) found.push(value);
    else bodySecrets(value, found, depth + 1);
  }
  return found;
}

/** Secrets written into a service's addresses and body templates: not settings of their own, but never to be shown. */
function writtenSecrets(s: ServiceSettings): string[] {
  switch (s.transport) {
    case 'http-api':
      return [...urlSecrets(s.baseUrl), ...s.tools.flatMap((tool) => [...urlSecrets(tool.url), ...bodySecrets(tool.body)])];
    case 'openapi':
      return [...urlSecrets(s.spec), ...urlSecrets(s.baseUrl)];
    case 'coze':
      return urlSecrets(s.baseUrl);
    case 'dify':
    case 'home-assistant':
      return urlSecrets(s.baseUrl);
    case 'n8n':
      return urlSecrets(s.url);
  }
}

/**
 * Applies `fn` to every secret a service's settings hold, and nothing else: the token or API key
 * of a platform, every header value of an n8n webhook (its header auth) and of an OpenAPI document, OpenAPI credentials, and
 * the secret-looking headers and query values of request tools. One list, so that the log's
 * redaction, the window's masks, the saved file's encryption and the restoring of masked values
 * sent back all agree on what is secret.
 */
export function mapServiceSecrets<T extends ServiceSettings>(service: T, fn: SecretFn): T {
  const s = service as ServiceSettings;
  switch (s.transport) {
    case 'http-api':
      return {
        ...s,
        headers: mapRecord(s.headers, 'headers', fn, false),
        tools: s.tools.map((tool, i) => ({
          ...tool,
          headers: mapRecord(tool.headers, `tools[${i}].headers`, fn, false),
          query: mapRecord(tool.query, `tools[${i}].query`, fn, false),
        })),
      } as T;
    case 'openapi':
      return {
        ...s,
        credentials: mapRecord(s.credentials, 'credentials', fn, true),
        headers: mapRecord(s.headers, 'headers', fn, true),
      } as T;
    case 'coze':
    case 'home-assistant':
      return { ...s, token: fn(s.token, 'token') } as T;
    case 'dify':
      return { ...s, apiKey: fn(s.apiKey, 'apiKey') } as T;
    case 'n8n':
      return { ...s, headers: mapRecord(s.headers, 'headers', fn, true) } as T;
  }
}

/**
 * Every secret value of a service (a `Bearer ` prefix left out, so the token alone is found too),
 * and the tokens written into its URLs and body templates: what the log, the history and the
 * answers sent to xiaozhi mask.
 */
export function serviceSecretValues(service: ServiceSettings): string[] {
  const values: string[] = [];
  mapServiceSecrets(service, (value) => {
    values.push(value, value.replace(/^(bearer|basic|token)\s+/i, ''));
    return value;
  });
  return [...values, ...writtenSecrets(service).filter((value) => value.length >= 4)];
}

/** A service as the window sees it: its secrets masked. */
export function maskService<T extends ServiceSettings>(service: T): T {
  return mapServiceSecrets(service, (value) => maskSecret(value));
}

/** Secrets the window sent back still masked take their real values; one still masked after that is refused, saying where. */
export function restoreMaskedService<T extends ServiceSettings>(incoming: T, existing: ServiceSettings | undefined): T {
  const before = new Map<string, string>();
  if (existing && existing.transport === incoming.transport)
    mapServiceSecrets(existing, (value, where) => {
      before.set(where, value);
      return value;
    });
  return mapServiceSecrets(incoming, (value, where) => {
    const real = before.get(where);
    if (real !== undefined && value === maskSecret(real)) return real;
    if (value.includes(MASK_MARKER)) throw new Error(`${where} of "${incoming.name}" is still masked; type its value again`);
    return value;
  });
}
