import { MASK_MARKER } from '../../../shared/masked';
import type { ServiceSettings } from '../../../shared/settings';
import { looksSecret, maskSecret } from '../logs/redact';

/** What to do with one secret of a service, told where it stands (`token`, `headers.X-Key`, `tools[0].query.key`). */
type SecretFn = (value: string, where: string) => string;

const mapRecord = (record: Record<string, string>, at: string, fn: SecretFn, all: boolean) =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, all || looksSecret(k) ? fn(v, `${at}.${k}`) : v]));

/**
 * Applies `fn` to every secret a service's settings hold, and nothing else: the token or API key
 * of a platform, every header value of an n8n webhook (its header auth), OpenAPI credentials, and
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
      return { ...s, credentials: mapRecord(s.credentials, 'credentials', fn, true) } as T;
    case 'coze':
    case 'home-assistant':
      return { ...s, token: fn(s.token, 'token') } as T;
    case 'dify':
      return { ...s, apiKey: fn(s.apiKey, 'apiKey') } as T;
    case 'n8n':
      return { ...s, headers: mapRecord(s.headers, 'headers', fn, true) } as T;
  }
}

/** Every secret value of a service (a `Bearer ` prefix left out, so the token alone is found too). */
export function serviceSecretValues(service: ServiceSettings): string[] {
  const values: string[] = [];
  mapServiceSecrets(service, (value) => {
    values.push(value, value.replace(/^(bearer|basic|token)\s+/i, ''));
    return value;
  });
  return values;
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
