import type { ServerSettings, Settings } from '../../shared/settings';
import { looksSecret, maskArgs, maskSecret, redactRecord, redactUrl, secretArgValues, secretQueryValues } from './logs/redact';

/** The secrets one server's settings hold: env and header values by name, URL queries, options. */
function serverSecrets(server: ServerSettings): string[] {
  const values: string[] = [];
  const record = server.transport === 'stdio' ? server.env : server.headers;
  for (const [key, value] of Object.entries(record)) if (looksSecret(key)) values.push(value.replace(/^(bearer|basic|token)\s+/i, ''));
  if (server.transport === 'stdio') values.push(...secretArgValues(server.args));
  else values.push(...secretQueryValues(server.url));
  return values;
}

/**
 * Every secret value in the settings (and the bridge's own environment), so that one redaction
 * pass can mask them wherever they appear: logs, status, history, errors.
 */
export function secretValues(settings: Settings, env: NodeJS.ProcessEnv = {}): string[] {
  const values: string[] = [];
  for (const endpoint of settings.endpoints) {
    try {
      for (const [key, value] of new URL(endpoint.url).searchParams) if (looksSecret(key) || value.length > 16) values.push(value);
    } catch {
      // invalid URLs never got past the schema
    }
  }
  for (const server of settings.servers) values.push(...serverSecrets(server));
  if (settings.modelscope.apiKey) values.push(settings.modelscope.apiKey);
  if (env.MODELSCOPE_API_TOKEN) values.push(env.MODELSCOPE_API_TOKEN);
  if (env.MCP_ENDPOINT) values.push(...secretQueryValues(env.MCP_ENDPOINT.trim()));
  if (settings.localServer.token) values.push(settings.localServer.token);
  return values.filter((v) => v.length >= 4);
}

/** A server as a UI may see it: secret env/header values, URL queries and options masked. */
export function maskServer<T extends ServerSettings>(server: T): T {
  return server.transport === 'stdio'
    ? { ...server, env: redactRecord(server.env), args: maskArgs(server.args) }
    : { ...server, headers: redactRecord(server.headers), url: redactUrl(server.url) };
}

/** The settings as a UI may see them: tokens and secret values masked. */
export function redactSettings(settings: Settings): Settings {
  const copy = structuredClone(settings);
  copy.endpoints = copy.endpoints.map((e) => ({ ...e, url: redactUrl(e.url) }));
  copy.servers = copy.servers.map(maskServer);
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

/** The same for a whole server: env, headers, URL and arguments that come back masked keep their real values. */
export function restoreMaskedServer(incoming: ServerSettings, existing: ServerSettings | undefined): ServerSettings {
  if (incoming.transport === 'stdio') {
    const before = existing?.transport === 'stdio' ? existing : undefined;
    // Masked argument → real argument, wherever the user moved it.
    const real = new Map<string, string>();
    if (before) maskArgs(before.args).forEach((shown, i) => shown !== before.args[i] && real.set(shown, before.args[i] as string));
    return { ...incoming, env: restoreMasked(incoming.env, before?.env), args: incoming.args.map((arg) => real.get(arg) ?? arg) };
  }
  const before = existing && existing.transport !== 'stdio' ? existing : undefined;
  return {
    ...incoming,
    headers: restoreMasked(incoming.headers, before?.headers),
    url: before && incoming.url === redactUrl(before.url) ? before.url : incoming.url,
  };
}
