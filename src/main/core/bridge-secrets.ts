import type { Settings } from '../../shared/settings';
import { looksSecret, maskSecret, redactUrl } from './logs/redact';

/** Every secret value in the settings, so the log book can mask them wherever they appear. */
export function secretValues(settings: Settings): string[] {
  const values: string[] = [];
  for (const endpoint of settings.endpoints) {
    try {
      for (const [key, value] of new URL(endpoint.url).searchParams) if (looksSecret(key) || value.length > 16) values.push(value);
    } catch {
      // invalid URLs never got past the schema
    }
  }
  for (const server of settings.servers) {
    const record = server.transport === 'stdio' ? server.env : server.headers;
    for (const [key, value] of Object.entries(record)) if (looksSecret(key)) values.push(value.replace(/^(bearer|basic|token)\s+/i, ''));
  }
  if (settings.modelscope.apiKey) values.push(settings.modelscope.apiKey);
  if (settings.localServer.token) values.push(settings.localServer.token);
  return values.filter((v) => v.length >= 4);
}

const maskRecord = (record: Record<string, string>) =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, looksSecret(k) ? maskSecret(v) : v]));

/** The settings as a UI may see them: tokens and secret values masked. */
export function redactSettings(settings: Settings): Settings {
  const copy = structuredClone(settings);
  copy.endpoints = copy.endpoints.map((e) => ({ ...e, url: redactUrl(e.url) }));
  copy.servers = copy.servers.map((s) =>
    s.transport === 'stdio' ? { ...s, env: maskRecord(s.env) } : { ...s, headers: maskRecord(s.headers) },
  );
  if (copy.modelscope.apiKey) copy.modelscope.apiKey = maskSecret(copy.modelscope.apiKey);
  // The window asks for the local server's token by its own command, when the user wants it.
  if (copy.localServer.token) copy.localServer.token = maskSecret(copy.localServer.token);
  return copy;
}

/** A UI edits the masked copy: where a value comes back still masked, keep the real one. */
export function restoreMasked(incoming: Record<string, string>, existing: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(incoming)) {
    const previous = existing?.[key];
    out[key] = previous !== undefined && value === maskSecret(previous) ? previous : value;
  }
  return out;
}
