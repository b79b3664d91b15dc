import path from 'node:path';
import type * as SmolToml from 'smol-toml';
import type { ImportFormat, ImportInput } from '../../../shared/import';
import type { ConnectionSettings, ServerSettings, ToolSettings } from '../../../shared/settings';
import { forbiddenKeyPaths } from '../../../shared/forbidden-keys';
import { ConfigError, JsonDocument, formatPath, type ConfigProblem, type JsonPath } from './json-text';
import { convertServerEntry } from './server-entry';
import { collectInputs, type InputDeclaration, type PlaceholderUse } from './placeholders';
import { isRecord } from '../../../shared/is-record';
import { nameRecord, type NameRecord } from '../../../shared/own';

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

const isServerLike = (v: unknown) =>
  isRecord(v) && (typeof v.command === 'string' || typeof v.url === 'string' || typeof v.serverUrl === 'string');

/** xiaozhi-client writes placeholder text containing 请填写 ("please fill in") for an unset endpoint. */
export function isPlaceholderEndpoint(value: string): boolean {
  return value.includes('请填写') || value.trim() === '' || /<.*>/.test(value);
}

/**
 * Which client an `mcpServers` file belongs to by its name and place, when they say (several clients
 * share the shape: a claude_desktop_config.json with a remote server is not Cursor's).
 */
export function flavourByLocation(file: string): ImportFormat | undefined {
  const normal = file.replace(/\\/g, '/').toLowerCase();
  const base = normal.slice(normal.lastIndexOf('/') + 1);
  if (base === 'claude_desktop_config.json') return 'claude-desktop';
  if (base === 'cline_mcp_settings.json' || normal.includes('/saoudrizwan.claude-dev/')) return 'cline';
  if (normal.endsWith('/.cursor/mcp.json')) return 'cursor';
  if (normal.includes('/.codeium/windsurf/') || normal.includes('/windsurf/mcp_config.json')) return 'windsurf';
  return undefined;
}

/** Which client wrote an `mcpServers` file: its name and place first, else the fields only that client uses. */
function mcpServersFlavour(file: string, servers: Record<string, unknown>): ImportFormat {
  const byLocation = flavourByLocation(file);
  if (byLocation) return byLocation;
  const entries = Object.values(servers).filter(isRecord);
  if (entries.some((e) => 'autoApprove' in e || 'alwaysAllow' in e || e.type === 'streamableHttp')) return 'cline';
  if (entries.some((e) => 'serverUrl' in e)) return 'windsurf';
  if (entries.some((e) => 'transportType' in e || e.type === 'stdio' || e.type === 'streamablehttp')) return 'xiaozhi-example';
  if (entries.some((e) => 'url' in e)) return 'cursor';
  return 'claude-desktop';
}

/** A name for a bare `{ "command": … }` snippet: the package it runs, without scope and "mcp-server-". */
export function nameForSnippet(entry: Record<string, unknown>): string {
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  const candidate =
    args.find((a) => !a.startsWith('-') && /[a-z]/i.test(a)) ??
    (typeof entry.url === 'string' ? new URL(entry.url).hostname : String(entry.command ?? 'server'));
  const base = path.basename(candidate.replace(/@[^/@]*$/, '').replace(/^@[^/]+\//, ''));
  const name = base.replace(/\.(py|js|mjs|ts)$/, '').replace(/^(mcp-server-|server-)|(-mcp-server|-mcp)$/g, '');
  return name || 'server';
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
 */
export function parseMcpConfig(file: string, raw: string, options: { keepGoing?: boolean } = {}): ParsedConfig {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const trimmed = text.trim();
  if (/^wss?:\/\/\S+$/i.test(trimmed)) {
    return {
      format: 'endpoint-url',
      servers: [],
      needs: [],
      placeholders: [],
      sourcePaths: [],
      endpoints: [{ name: 'xiaozhi', url: trimmed }],
      endpointPaths: [[]],
      tools: nameRecord(),
      inputs: [],
      warnings: [],
      problems: [],
    };
  }
  const looksToml = /^\s*\[mcp_servers[.\]]/m.test(text) || (/\.toml$/i.test(file) && !/^\s*[{[]/.test(trimmed));
  if (looksToml) return fromCodex(file, parseTomlText(file, text), options);

  // keepGoing: refused keys are reported with the other problems of the file, in one pass.
  const doc = JsonDocument.parse(file, text, { keepRefused: options.keepGoing === true });
  const root = doc.value;
  if (!isRecord(root)) throw new ConfigError(file, [{ path: '', message: NOT_A_CONFIG }]);

  const problems: ConfigProblem[] = [...doc.refused];
  const warnings: ConfigProblem[] = [];
  const servers: ServerSettings[] = [];
  const sourcePaths: JsonPath[] = [];
  const sourceEntries: unknown[] = [];
  const endpoints: { name: string; url: string }[] = [];
  const endpointPaths: JsonPath[] = [];
  // Keyed by the file's names (servers, tools, input ids): records with no prototype.
  const tools: ParsedConfig['tools'] = nameRecord();
  const declared = nameRecord<InputDeclaration>();
  let format: ImportFormat;
  let entries: [string, unknown, JsonPath][] = [];
  let urlWithoutTypeIs: 'guess' | 'sse' = 'guess';
  let modelscopeApiKey: string | undefined;
  let connection: Partial<ConnectionSettings> | undefined;

  if ('mcpEndpoint' in root || 'mcpServerConfig' in root || 'modelscope' in root) {
    format = 'xiaozhi-client';
  } else if (isRecord(root.mcpServers)) {
    format = mcpServersFlavour(file, root.mcpServers);
  } else if (isRecord(root.servers)) {
    format = 'vscode';
  } else if (Array.isArray(root.endpoints) || Array.isArray(root.servers)) {
    format = 'xiaozhi-tray';
  } else if (typeof root.command === 'string' || (typeof root.url === 'string' && !('mcpServers' in root))) {
    format = 'server-snippet';
    entries = [[nameForSnippet(root), root, []]];
  } else if (Object.keys(root).length > 0 && Object.values(root).every(isServerLike)) {
    format = 'server-snippet';
    entries = Object.entries(root).map(([name, entry]) => [name, entry, [name]]);
  } else {
    throw new ConfigError(file, [{ path: '', message: NOT_A_CONFIG }]);
  }

  if (format === 'xiaozhi-tray') {
    const list = Array.isArray(root.servers) ? root.servers : [];
    list.forEach((s, i) => {
      if (isRecord(s) && typeof s.name === 'string') entries.push([s.name, { ...s, type: s.transport }, ['servers', i]]);
      else problems.push(doc.problemAt(['servers', i], 'must be a server with a "name"'));
    });
    (Array.isArray(root.endpoints) ? root.endpoints : []).forEach((e, i) => {
      if (isRecord(e) && typeof e.url === 'string') {
        endpoints.push({ name: typeof e.name === 'string' ? e.name : `xiaozhi-${i + 1}`, url: e.url });
        endpointPaths.push(['endpoints', i, 'url']);
      }
    });
  } else if (format === 'vscode') {
    entries = Object.entries(root.servers as Record<string, unknown>).map(([name, entry]) => [name, entry, ['servers', name]]);
    for (const input of Array.isArray(root.inputs) ? root.inputs : []) {
      if (isRecord(input) && typeof input.id === 'string') {
        declared[input.id] = {
          ...(typeof input.description === 'string' ? { description: input.description } : {}),
          ...(typeof input.password === 'boolean' ? { password: input.password } : {}),
          ...(typeof input.default === 'string' ? { default: input.default } : {}),
        };
      }
    }
  } else if (format !== 'server-snippet') {
    const map = isRecord(root.mcpServers) ? root.mcpServers : {};
    if (root.mcpServers !== undefined && !isRecord(root.mcpServers))
      problems.push(doc.problemAt(['mcpServers'], 'must be an object of server names to servers'));
    entries = Object.entries(map).map(([name, entry]) => [name, entry, ['mcpServers', name]]);
    if (format === 'cline') urlWithoutTypeIs = 'sse';
  }

  if (format === 'xiaozhi-client') {
    const rawEndpoint = root.mcpEndpoint;
    const list =
      typeof rawEndpoint === 'string' ? [rawEndpoint] : Array.isArray(rawEndpoint) ? rawEndpoint : rawEndpoint === undefined ? [] : null;
    if (list === null) problems.push(doc.problemAt(['mcpEndpoint'], 'must be a URL or a list of URLs'));
    (list ?? []).forEach((url, index) => {
      const at = typeof rawEndpoint === 'string' ? ['mcpEndpoint'] : ['mcpEndpoint', index];
      if (typeof url !== 'string') problems.push(doc.problemAt(at, 'must be a ws:// or wss:// URL'));
      else if (!isPlaceholderEndpoint(url)) {
        endpoints.push({ name: index === 0 ? 'xiaozhi' : `xiaozhi-${index + 1}`, url: url.trim() });
        endpointPaths.push(at);
      }
    });
    if (isRecord(root.mcpServerConfig)) {
      for (const [serverName, config] of Object.entries(root.mcpServerConfig)) {
        const toolMap = isRecord(config) && isRecord(config.tools) ? config.tools : {};
        for (const [toolName, toolConfig] of Object.entries(toolMap)) {
          if (!isRecord(toolConfig)) continue;
          const entry: ToolSettings = { enabled: toolConfig.enable !== false };
          if (typeof toolConfig.description === 'string' && toolConfig.description.trim() !== '')
            entry.description = toolConfig.description;
          (tools[serverName] ??= nameRecord())[toolName] = entry;
        }
      }
    }
    if (isRecord(root.modelscope) && typeof root.modelscope.apiKey === 'string' && root.modelscope.apiKey.trim())
      modelscopeApiKey = root.modelscope.apiKey.trim();
    if (isRecord(root.connection)) {
      const ms = (v: unknown) => (typeof v === 'number' && v > 0 ? Math.round(v) : undefined);
      const c: Partial<ConnectionSettings> = {};
      const heartbeat = ms(root.connection.heartbeatInterval);
      const timeout = ms(root.connection.heartbeatTimeout);
      const reconnect = ms(root.connection.reconnectInterval);
      if (heartbeat) c.heartbeatIntervalMs = heartbeat;
      if (timeout) c.heartbeatTimeoutMs = timeout;
      if (reconnect) c.reconnectBaseMs = reconnect;
      connection = c;
    }
  }

  for (const [name, entry, at] of entries) {
    if (isRecord(entry) && 'envFile' in entry)
      warnings.push(doc.problemAt([...at, 'envFile'], '"envFile" is not read; add its variables under env'));
    const cleaned = isRecord(entry)
      ? Object.fromEntries(
          Object.entries(entry).filter(
            ([k]) => k !== 'envFile' && !(format === 'xiaozhi-tray' && (k === 'transport' || k === 'callTimeoutMs')),
          ),
        )
      : entry;
    const result = convertServerEntry(name, cleaned, at, { urlWithoutTypeIs });
    for (const w of result.warnings) warnings.push(doc.problemAt(w.path, w.message));
    for (const p of result.problems) problems.push(doc.problemAt(p.path, p.message));
    if (result.server) {
      if (format === 'xiaozhi-tray' && isRecord(entry) && typeof entry.callTimeoutMs === 'number')
        result.server.callTimeoutMs = entry.callTimeoutMs;
      servers.push(result.server);
      sourcePaths.push(at);
      sourceEntries.push(entry);
    }
  }
  if (problems.length > 0 && !options.keepGoing) throw new ConfigError(file, problems);
  if (problems.length === 0 && servers.length === 0 && endpoints.length === 0 && format !== 'xiaozhi-client' && format !== 'xiaozhi-tray') {
    throw new ConfigError(file, [{ path: '', message: `found a ${format} config with no servers in it` }]);
  }
  const withInputs = collectInputs(servers, declared);
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
    endpointPaths,
    tools,
    ...(modelscopeApiKey ? { modelscopeApiKey } : {}),
    ...(connection ? { connection } : {}),
    inputs: withInputs.inputs,
    warnings,
    problems,
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
