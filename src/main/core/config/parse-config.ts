import type * as SmolToml from 'smol-toml';

import { forbiddenKeyPaths } from '../../../shared/forbidden-keys';
import type { ImportFormat, ImportInput } from '../../../shared/import';
import { isRecord } from '../../../shared/is-record';
import { type NameRecord, nameRecord } from '../../../shared/own';
import type { ConnectionSettings, ServerSettings, ToolSettings } from '../../../shared/settings';
import { JSON_ADAPTERS, jsonFormat } from './json-formats';
import { ConfigError, type ConfigProblem, formatPath, JsonDocument, type JsonPath } from './json-text';
import { collectInputs, type InputDeclaration, type PlaceholderUse } from './placeholders';
import { convertServerEntry } from './server-entry';

export { flavourByLocation, isPlaceholderEndpoint, nameForSnippet } from './json-formats';

/** A placeholder where it stands: its field in the server's settings, and its place in the file. */
export interface PlacedPlaceholder extends PlaceholderUse {
  at: Omit<ConfigProblem, 'message'>;
}

/** A config file of any supported client, normalised to our settings' pieces. */
export interface ParsedConfig {
  format: ImportFormat;
  servers: ServerSettings[];
  /** For each server, the inputs it needs before it can run. */
  needs: string[][];
  /** For each server, every placeholder it holds (`${userHome}` excepted), and where. */
  placeholders: PlacedPlaceholder[][];
  /** For each server, where it stands in the source file. */
  sourcePaths: JsonPath[];
  endpoints: { name: string; url: string }[];
  /** For each endpoint, where it stands in the source file. */
  endpointPaths: JsonPath[];
  /** Switches by server and tool (keyed by the file's names: no prototype). */
  tools: NameRecord<NameRecord<ToolSettings>>;
  modelscopeApiKey?: string;
  connection?: Partial<ConnectionSettings>;
  inputs: ImportInput[];
  warnings: ConfigProblem[];
  /** What is wrong with entries that were left out (only with `keepGoing`; otherwise thrown). */
  problems: ConfigProblem[];
}

function parseTomlText(file: string, text: string): Record<string, unknown> {
  // Required for Codex's TOML only, the one format that needs it.
  const toml = require('smol-toml') as typeof SmolToml;
  let parsed: Record<string, unknown>;
  try {
    parsed = toml.parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof toml.TomlError) {
      throw new ConfigError(file, [
        { path: '', line: error.line, column: error.column, message: `invalid TOML: ${error.message.split('\n')[0]}` },
      ]);
    }
    throw error;
  }
  const refused = forbiddenKeyPaths(parsed);
  if (refused.length > 0) {
    throw new ConfigError(
      file,
      refused.map((p) => ({
        path: formatPath(p),
        message: `the key "${String(p[p.length - 1])}" is not allowed (it could change what other keys mean)`,
      })),
    );
  }
  return parsed;
}

const NOT_A_CONFIG =
  'this is not an MCP config: looked for "mcpServers" (Claude Desktop, Cursor, Windsurf, Cline, the xiaozhi example), "servers" (VS Code), "mcpEndpoint" (xiaozhi-client), [mcp_servers] (Codex), a server with "command" or "url", or a ws:// endpoint URL';

/**
 * Reads the config files people already have. Detects the format by content, and by the file's name
 * and place where clients share a shape; says where anything is wrong. Never touches the source file.
 * Each JSON format has its adapter (`json-formats.ts`); the servers they find are converted alike.
 */
export function parseMcpConfig(file: string, raw: string, options: { keepGoing?: boolean } = {}): ParsedConfig {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const trimmed = text.trim();
  if (/^wss?:\/\/\S+$/i.test(trimmed)) return fromEndpointUrl(trimmed);
  const looksToml = /^\s*\[mcp_servers[.\]]/m.test(text) || (/\.toml$/i.test(file) && !/^\s*[{[]/.test(trimmed));
  if (looksToml) return fromCodex(file, parseTomlText(file, text), options);

  // keepGoing: refused keys are reported with the other problems of the file, in one pass.
  const doc = JsonDocument.parse(file, text, { keepRefused: options.keepGoing === true });
  const root = doc.value;
  const format = isRecord(root) ? jsonFormat(file, root) : undefined;
  if (!isRecord(root) || format === undefined) throw new ConfigError(file, [{ path: '', message: NOT_A_CONFIG }]);

  const problems: ConfigProblem[] = [...doc.refused];
  const reading = JSON_ADAPTERS[format](root, doc, problems);
  const warnings: ConfigProblem[] = [];
  const servers: ServerSettings[] = [];
  const sourcePaths: JsonPath[] = [];
  const sourceEntries: unknown[] = [];
  for (const [name, entry, at] of reading.entries) {
    if (isRecord(entry) && 'envFile' in entry)
      warnings.push(doc.problemAt([...at, 'envFile'], '"envFile" is not read; add its variables under env'));
    const cleaned = isRecord(entry) ? withoutEnvFile(reading.shape ? reading.shape.clean(entry) : entry) : entry;
    const result = convertServerEntry(name, cleaned, at, { urlWithoutTypeIs: reading.urlWithoutTypeIs ?? 'guess' });
    for (const w of result.warnings) warnings.push(doc.problemAt(w.path, w.message));
    for (const p of result.problems) problems.push({ ...doc.problemAt(p.path, p.message), ...(p.problem ? { problem: p.problem } : {}) });
    if (result.server) {
      if (reading.shape && isRecord(entry)) reading.shape.finish(result.server, entry);
      servers.push(result.server);
      sourcePaths.push(at);
      sourceEntries.push(entry);
    }
  }
  const endpoints = reading.endpoints ?? [];
  if (problems.length > 0 && !options.keepGoing) throw new ConfigError(file, problems);
  if (problems.length === 0 && servers.length === 0 && endpoints.length === 0 && !reading.mayBeEmpty) {
    throw new ConfigError(file, [{ path: '', message: `found a ${format} config with no servers in it` }]);
  }
  const withInputs = collectInputs(servers, reading.declared ?? nameRecord<InputDeclaration>());
  const place = (index: number, field: JsonPath) => {
    const { message: _none, ...at } = doc.problemAt(
      [...(sourcePaths[index] ?? []), ...sourceField(sourceEntries[index], field, format)],
      '',
    );
    return at;
  };
  return {
    format,
    servers: withInputs.servers,
    needs: withInputs.needs,
    placeholders: withInputs.uses.map((uses, index) => uses.map((use) => ({ ...use, at: place(index, use.field) }))),
    sourcePaths,
    endpoints,
    endpointPaths: reading.endpointPaths ?? [],
    tools: reading.tools ?? nameRecord(),
    ...(reading.modelscopeApiKey ? { modelscopeApiKey: reading.modelscopeApiKey } : {}),
    ...(reading.connection ? { connection: reading.connection } : {}),
    inputs: withInputs.inputs,
    warnings,
    problems,
  };
}

const withoutEnvFile = (entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).filter(([k]) => k !== 'envFile'));

/** A bare `wss://…` endpoint address, as xiaozhi's console shows it. */
function fromEndpointUrl(url: string): ParsedConfig {
  return {
    format: 'endpoint-url',
    servers: [],
    needs: [],
    placeholders: [],
    sourcePaths: [],
    endpoints: [{ name: 'xiaozhi', url }],
    endpointPaths: [[]],
    tools: nameRecord(),
    inputs: [],
    warnings: [],
    problems: [],
  };
}

/** Codex `config.toml`: `[mcp_servers.<name>]` tables. */
function fromCodex(file: string, root: Record<string, unknown>, options: { keepGoing?: boolean }): ParsedConfig {
  const table = root.mcp_servers;
  if (!isRecord(table)) throw new ConfigError(file, [{ path: '', message: NOT_A_CONFIG }]);
  const servers: ServerSettings[] = [];
  const sourcePaths: JsonPath[] = [];
  const sourceEntries: unknown[] = [];
  const problems: ConfigProblem[] = [];
  const warnings: ConfigProblem[] = [];
  for (const [name, entry] of Object.entries(table)) {
    const at = ['mcp_servers', name];
    if (!isRecord(entry)) {
      problems.push({ path: formatPath(at), message: 'must be a table describing the server' });
      continue;
    }
    const headers: Record<string, string> = isRecord(entry.http_headers)
      ? Object.fromEntries(Object.entries(entry.http_headers).map(([k, v]) => [k, String(v)]))
      : {};
    if (typeof entry.bearer_token_env_var === 'string') headers.Authorization = `Bearer \${env:${entry.bearer_token_env_var}}`;
    const converted = convertServerEntry(
      name,
      {
        ...(typeof entry.command === 'string' ? { command: entry.command, args: entry.args ?? [], env: entry.env ?? {} } : {}),
        ...(typeof entry.url === 'string' ? { url: entry.url, type: 'http', headers } : {}),
        ...(typeof entry.cwd === 'string' ? { cwd: entry.cwd } : {}),
        ...(entry.enabled === false ? { disabled: true } : {}),
        ...(typeof entry.tool_timeout_sec === 'number' ? { timeout: entry.tool_timeout_sec } : {}),
      },
      at,
    );
    for (const key of Object.keys(entry)) {
      if (
        ![
          'command',
          'args',
          'env',
          'url',
          'http_headers',
          'bearer_token_env_var',
          'cwd',
          'enabled',
          'tool_timeout_sec',
          'startup_timeout_sec',
        ].includes(key)
      ) {
        warnings.push({ path: formatPath([...at, key]), message: `"${key}" is not supported and was ignored` });
      }
    }
    for (const p of converted.problems) problems.push({ path: formatPath(p.path), message: p.message });
    if (converted.server) {
      servers.push(converted.server);
      sourcePaths.push(at);
      sourceEntries.push(entry);
    }
  }
  if (problems.length > 0 && !options.keepGoing) throw new ConfigError(file, problems);
  const withInputs = collectInputs(servers, {});
  const placeholders = withInputs.uses.map((uses, index) =>
    uses.map((use) => ({
      ...use,
      at: { path: formatPath([...(sourcePaths[index] ?? []), ...sourceField(sourceEntries[index], use.field, 'codex')]) },
    })),
  );
  return {
    format: 'codex',
    servers: withInputs.servers,
    needs: withInputs.needs,
    placeholders,
    sourcePaths,
    endpoints: [],
    endpointPaths: [],
    tools: nameRecord(),
    inputs: withInputs.inputs,
    warnings,
    problems,
  };
}

/** Where a field of our server settings came from in the client's entry (Windsurf's serverUrl, Codex's http_headers…). */
function sourceField(entry: unknown, field: JsonPath, format: ImportFormat): JsonPath {
  const raw = isRecord(entry) ? entry : {};
  if (field[0] === 'url' && !('url' in raw) && 'serverUrl' in raw) return ['serverUrl'];
  if (format === 'codex' && field[0] === 'headers') {
    const inTable = isRecord(raw.http_headers) && typeof field[1] === 'string' && Object.hasOwn(raw.http_headers, field[1]);
    return inTable
      ? ['http_headers', ...field.slice(1)]
      : typeof raw.bearer_token_env_var === 'string'
        ? ['bearer_token_env_var']
        : ['http_headers', ...field.slice(1)];
  }
  return field;
}

/**
 * The config without the servers `isOwn` recognises as this app itself (its local MCP server, or
 * `xiaozhi-tray connect`), each left out with a warning: running one would serve our own tools
 * back to us, in a loop.
 */
export function withoutOwnEntries(
  parsed: ParsedConfig,
  isOwn: (server: ServerSettings) => boolean,
  skipped: (name: string) => string,
): ParsedConfig {
  const keep = parsed.servers.map((server) => !isOwn(server));
  if (keep.every(Boolean)) return parsed;
  return {
    ...parsed,
    servers: parsed.servers.filter((_, i) => keep[i]),
    needs: parsed.needs.filter((_, i) => keep[i]),
    placeholders: parsed.placeholders.filter((_, i) => keep[i]),
    sourcePaths: parsed.sourcePaths.filter((_, i) => keep[i]),
    warnings: [
      ...parsed.warnings,
      ...parsed.servers.flatMap((server, i) =>
        keep[i] ? [] : [{ path: formatPath(parsed.sourcePaths[i] ?? []), message: skipped(server.name) }],
      ),
    ],
  };
}
