import { isRecord } from '../../../shared/is-record';
import { nameRecord, own } from '../../../shared/own';
import { type Problem, problem } from '../../../shared/problem';
import { isServiceKind } from '../../../shared/service-settings';
import { OAuthSettingsSchema, type ServerSettings, ServerSettingsSchema } from '../../../shared/settings';
import type { JsonPath } from './json-text';

export interface EntryIssue {
  path: JsonPath;
  message: string;
  /** What it is, for a reader in another language (the CLI's check). */
  problem?: Problem;
}

export interface EntryResult {
  server?: ServerSettings;
  warnings: EntryIssue[];
  problems: EntryIssue[];
}

const TRANSPORT_ALIASES: Record<string, ServerSettings['transport']> = {
  stdio: 'stdio',
  sse: 'sse',
  http: 'streamable-http',
  'streamable-http': 'streamable-http',
  streamable_http: 'streamable-http',
  streamablehttp: 'streamable-http',
};

/** Fields that some client uses and that we knowingly have no use for. */
const IGNORED = new Set([
  'autoApprove',
  'alwaysAllow',
  'description',
  'icon',
  'name',
  'transportType',
  'type',
  'disabled',
  'enabled',
  'timeout',
  'serverUrl',
  'url',
  'command',
  'args',
  'env',
  'cwd',
  'headers',
  'oauth',
  'catalogue',
]);

/** The catalogue entry our own export says a server came from (other programs write none). */
const fromCatalogue = (entry: Record<string, unknown>) =>
  typeof entry.catalogue === 'string' && entry.catalogue.trim() ? { catalogue: entry.catalogue.trim().slice(0, 200) } : {};

function stringRecord(value: unknown, path: JsonPath, problems: EntryIssue[]): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) {
    problems.push({ path, message: 'must be an object of names to text values' });
    return {};
  }
  // Keyed by the file's names (env, headers): no prototype.
  const out = nameRecord<string>();
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') out[key] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') out[key] = String(item);
    else problems.push({ path: [...path, key], message: 'must be text' });
  }
  return out;
}

/** A URL with no declared transport: a `/sse` path means SSE, anything else streamable HTTP. */
export function guessRemoteTransport(url: string): 'sse' | 'streamable-http' {
  try {
    return /\/sse\/?$/i.test(new URL(url).pathname) ? 'sse' : 'streamable-http';
  } catch {
    return 'streamable-http';
  }
}

/**
 * One entry of an `mcpServers` map as Claude Desktop, Cursor, the official xiaozhi example,
 * xiaozhi-client and others write it, turned into our server settings.
 */
export function convertServerEntry(
  name: string,
  entry: unknown,
  path: JsonPath,
  options: { urlWithoutTypeIs?: 'guess' | 'sse' } = {},
): EntryResult {
  const warnings: EntryIssue[] = [];
  const problems: EntryIssue[] = [];
  if (!isRecord(entry)) return { warnings, problems: [{ path, message: 'must be an object describing the server' }] };

  const declared = entry.type ?? entry.transportType ?? entry.transport;
  if (typeof declared === 'string' && isServiceKind(declared)) return convertServiceEntry(name, entry, path);
  let transport: ServerSettings['transport'] | undefined;
  if (declared !== undefined) {
    transport = typeof declared === 'string' ? own(TRANSPORT_ALIASES, declared.toLowerCase()) : undefined;
    if (!transport) {
      problems.push({
        path: [...path, entry.type !== undefined ? 'type' : 'transportType'],
        message: `unknown transport ${JSON.stringify(declared)} (expected stdio, sse or http)`,
      });
      return { warnings, problems };
    }
  }
  const url = typeof entry.url === 'string' ? entry.url : typeof entry.serverUrl === 'string' ? entry.serverUrl : undefined;
  if (!transport) {
    if (typeof entry.command === 'string') transport = 'stdio';
    else if (url) transport = options.urlWithoutTypeIs === 'sse' ? 'sse' : guessRemoteTransport(url);
    else {
      problems.push({
        path,
        message: 'has neither "command" (a program to run) nor "url" (a remote server)',
        problem: problem('config.noCommandOrUrl'),
      });
      return { warnings, problems };
    }
  }
  const enabled = entry.disabled === true ? false : entry.enabled === false ? false : true;
  const callTimeoutMs =
    typeof entry.timeout === 'number' && entry.timeout > 0
      ? Math.round(entry.timeout < 3600 ? entry.timeout * 1000 : entry.timeout)
      : undefined;
  for (const key of Object.keys(entry)) {
    if (!IGNORED.has(key) && !(key === 'transport'))
      warnings.push({ path: [...path, key], message: `"${key}" is not supported and was ignored` });
  }

  if (transport === 'stdio') {
    if (typeof entry.command !== 'string' || entry.command.trim() === '') {
      problems.push({ path: [...path, 'command'], message: 'must name a program to run' });
      return { warnings, problems };
    }
    let args: string[] = [];
    if (entry.args !== undefined) {
      if (Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string' || typeof a === 'number'))
        args = entry.args.map(String);
      else problems.push({ path: [...path, 'args'], message: 'must be a list of text arguments' });
    }
    const env = stringRecord(entry.env, [...path, 'env'], problems);
    const server: ServerSettings = {
      name,
      transport: 'stdio',
      command: entry.command,
      args,
      env,
      enabled,
      ...(typeof entry.cwd === 'string' ? { cwd: entry.cwd } : {}),
      ...(callTimeoutMs ? { callTimeoutMs } : {}),
      ...fromCatalogue(entry),
    };
    return { server, warnings, problems };
  }
  if (!url) {
    problems.push({ path: [...path, 'url'], message: `a ${transport} server needs a "url"` });
    return { warnings, problems };
  }
  const headers = stringRecord(entry.headers, [...path, 'headers'], problems);
  const oauth = entry.oauth === undefined ? undefined : OAuthSettingsSchema.safeParse(entry.oauth);
  for (const issue of oauth?.error?.issues ?? [])
    problems.push({ path: [...path, 'oauth', ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))], message: issue.message });
  const server: ServerSettings = {
    name,
    transport: transport as 'sse' | 'streamable-http',
    url,
    headers,
    enabled,
    ...(callTimeoutMs ? { callTimeoutMs } : {}),
    ...(oauth?.success ? { oauth: oauth.data } : {}),
    ...fromCatalogue(entry),
  };
  return { server, warnings, problems };
}

/**
 * A web service entry (`"type": "coze"`, `"dify"`…, as our own export writes it, or `"transport"`
 * as our config does): checked against its schema, every problem with where it stands.
 */
function convertServiceEntry(name: string, entry: Record<string, unknown>, path: JsonPath): EntryResult {
  const { type, transportType: _alias, transport, disabled, timeout, ...fields } = entry;
  // `disabled` and `timeout` (seconds) as the export writes them for every entry.
  const more = {
    ...(disabled === true ? { enabled: false } : {}),
    ...(typeof timeout === 'number' && timeout > 0 && fields.callTimeoutMs === undefined
      ? { callTimeoutMs: Math.round(timeout * 1000) }
      : {}),
  };
  const parsed = ServerSettingsSchema.safeParse({ ...fields, ...more, name, transport: transport ?? type });
  if (parsed.success) return { server: parsed.data, warnings: [], problems: [] };
  const problems = parsed.error.issues.map((issue) => ({
    path: [...path, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    message: issue.message,
  }));
  return { warnings: [], problems };
}
