import path from 'node:path';

import type { ImportFormat } from '../../../shared/import';
import { isRecord } from '../../../shared/is-record';
import { type NameRecord, nameRecord } from '../../../shared/own';
import type { ConnectionSettings, ServerSettings, ToolSettings } from '../../../shared/settings';
import type { ConfigProblem, JsonDocument, JsonPath } from './json-text';
import type { InputDeclaration } from './placeholders';

/** The JSON formats (Codex's TOML and a bare endpoint URL are read before any JSON). */
export type JsonFormat = Exclude<ImportFormat, 'codex' | 'endpoint-url'>;

/** A server entry of the file: its name, the entry as written, and where it stands. */
export type SourceEntry = [name: string, entry: unknown, at: JsonPath];

/** What an adapter read of its format: the server entries to convert, and what else the format carries. */
export interface FormatReading {
  entries: SourceEntry[];
  /** How a `url` without a `type` is read: guessed from the URL, or SSE (Cline's default). */
  urlWithoutTypeIs?: 'guess' | 'sse';
  /** Inputs the file declares (VS Code's `inputs`), by id. */
  declared?: NameRecord<InputDeclaration>;
  endpoints?: { name: string; url: string }[];
  endpointPaths?: JsonPath[];
  tools?: NameRecord<NameRecord<ToolSettings>>;
  modelscopeApiKey?: string;
  connection?: Partial<ConnectionSettings>;
  /** The entry as the shared converter reads it (fields it would refuse taken out), and the server completed after. */
  shape?: {
    clean(entry: Record<string, unknown>): Record<string, unknown>;
    finish(server: ServerSettings, entry: Record<string, unknown>): void;
  };
  /** A file of this format may hold no servers (it carries endpoints or tool switches). */
  mayBeEmpty?: boolean;
}

/** Reads a root of its format; what is wrong goes to `problems`, in the file's order. */
type FormatAdapter = (root: Record<string, unknown>, doc: JsonDocument, problems: ConfigProblem[]) => FormatReading;

const isServerLike = (v: unknown) =>
  isRecord(v) && (typeof v.command === 'string' || typeof v.url === 'string' || typeof v.serverUrl === 'string');

/** Which format a JSON root is, by the keys only it has (tried in this order); undefined: none. */
export function jsonFormat(file: string, root: Record<string, unknown>): JsonFormat | undefined {
  if ('mcpEndpoint' in root || 'mcpServerConfig' in root || 'modelscope' in root) return 'xiaozhi-client';
  if (isRecord(root.mcpServers)) return mcpServersFlavour(file, root.mcpServers);
  if (isRecord(root.servers)) return 'vscode';
  if (Array.isArray(root.endpoints) || Array.isArray(root.servers)) return 'xiaozhi-tray';
  if (typeof root.command === 'string' || (typeof root.url === 'string' && !('mcpServers' in root))) return 'server-snippet';
  if (Object.keys(root).length > 0 && Object.values(root).every(isServerLike)) return 'server-snippet';
  return undefined;
}

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

type McpServersFormat = 'claude-desktop' | 'cline' | 'cursor' | 'windsurf' | 'xiaozhi-example';

/** Which client wrote an `mcpServers` file: its name and place first, else the fields only that client uses. */
function mcpServersFlavour(file: string, servers: Record<string, unknown>): McpServersFormat {
  const byLocation = flavourByLocation(file) as McpServersFormat | undefined;
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

/** The `mcpServers` object most clients write (Claude Desktop, Cursor, Windsurf, the xiaozhi example, xiaozhi-client). */
function mcpServerEntries(root: Record<string, unknown>, doc: JsonDocument, problems: ConfigProblem[]): SourceEntry[] {
  if (root.mcpServers !== undefined && !isRecord(root.mcpServers))
    problems.push(doc.problemAt(['mcpServers'], 'must be an object of server names to servers'));
  const map = isRecord(root.mcpServers) ? root.mcpServers : {};
  return Object.entries(map).map(([name, entry]) => [name, entry, ['mcpServers', name]]);
}

const mcpServers: FormatAdapter = (root, doc, problems) => ({ entries: mcpServerEntries(root, doc, problems) });

/** Cline reads a `url` without a `type` as SSE. */
const cline: FormatAdapter = (root, doc, problems) => ({ entries: mcpServerEntries(root, doc, problems), urlWithoutTypeIs: 'sse' });

/** VS Code: `servers`, and the `inputs` their `${input:…}` ask for. */
const vscode: FormatAdapter = (root) => {
  const declared = nameRecord<InputDeclaration>();
  for (const input of Array.isArray(root.inputs) ? root.inputs : []) {
    if (isRecord(input) && typeof input.id === 'string') {
      declared[input.id] = {
        ...(typeof input.description === 'string' ? { description: input.description } : {}),
        ...(typeof input.password === 'boolean' ? { password: input.password } : {}),
        ...(typeof input.default === 'string' ? { default: input.default } : {}),
      };
    }
  }
  const entries = Object.entries(root.servers as Record<string, unknown>).map(([name, entry]): SourceEntry => [
    name,
    entry,
    ['servers', name],
  ]);
  return { entries, declared };
};

/** A server entry on its own, or several by name, as READMEs show them. */
const serverSnippet: FormatAdapter = (root) =>
  typeof root.command === 'string' || typeof root.url === 'string'
    ? { entries: [[nameForSnippet(root), root, []]] }
    : { entries: Object.entries(root).map(([name, entry]) => [name, entry, [name]]) };

/** Our own settings file: `servers` as a list with names, `endpoints` with URLs. */
const xiaozhiTray: FormatAdapter = (root, doc, problems) => {
  const entries: SourceEntry[] = [];
  (Array.isArray(root.servers) ? root.servers : []).forEach((s, i) => {
    if (isRecord(s) && typeof s.name === 'string') entries.push([s.name, { ...s, type: s.transport }, ['servers', i]]);
    else problems.push(doc.problemAt(['servers', i], 'must be a server with a "name"'));
  });
  const endpoints: { name: string; url: string }[] = [];
  const endpointPaths: JsonPath[] = [];
  (Array.isArray(root.endpoints) ? root.endpoints : []).forEach((e, i) => {
    if (isRecord(e) && typeof e.url === 'string') {
      endpoints.push({ name: typeof e.name === 'string' ? e.name : `xiaozhi-${i + 1}`, url: e.url });
      endpointPaths.push(['endpoints', i, 'url']);
    }
  });
  return {
    entries,
    endpoints,
    endpointPaths,
    mayBeEmpty: true,
    // Our own fields the converter does not know: `transport` is read as `type`, the call timeout is kept as it is.
    shape: {
      clean: (entry) => Object.fromEntries(Object.entries(entry).filter(([k]) => k !== 'transport' && k !== 'callTimeoutMs')),
      finish: (server, entry) => {
        if (typeof entry.callTimeoutMs === 'number') server.callTimeoutMs = entry.callTimeoutMs;
      },
    },
  };
};

/** xiaozhi-client: `mcpServers`, its endpoints (`mcpEndpoint`), tool switches, the ModelScope key and connection times. */
const xiaozhiClient: FormatAdapter = (root, doc, problems) => {
  const entries = mcpServerEntries(root, doc, problems);
  const endpoints: { name: string; url: string }[] = [];
  const endpointPaths: JsonPath[] = [];
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
  const modelscope = root.modelscope;
  const modelscopeApiKey = isRecord(modelscope) && typeof modelscope.apiKey === 'string' ? modelscope.apiKey.trim() : '';
  const connection = isRecord(root.connection) ? connectionTimes(root.connection) : undefined;
  return {
    entries,
    endpoints,
    endpointPaths,
    tools: toolSwitches(root.mcpServerConfig),
    ...(modelscopeApiKey ? { modelscopeApiKey } : {}),
    ...(connection ? { connection } : {}),
    mayBeEmpty: true,
  };
};

/** xiaozhi-client's `mcpServerConfig`: each server's tools switched on or off, with the user's descriptions. */
function toolSwitches(config: unknown): NameRecord<NameRecord<ToolSettings>> {
  // Keyed by the file's names (servers, tools): records with no prototype.
  const tools = nameRecord<NameRecord<ToolSettings>>();
  if (!isRecord(config)) return tools;
  for (const [serverName, server] of Object.entries(config)) {
    const toolMap = isRecord(server) && isRecord(server.tools) ? server.tools : {};
    for (const [toolName, toolConfig] of Object.entries(toolMap)) {
      if (!isRecord(toolConfig)) continue;
      const entry: ToolSettings = { enabled: toolConfig.enable !== false };
      if (typeof toolConfig.description === 'string' && toolConfig.description.trim() !== '') entry.description = toolConfig.description;
      (tools[serverName] ??= nameRecord())[toolName] = entry;
    }
  }
  return tools;
}

/** xiaozhi-client's `connection` times (ms), the ones it has in common with ours. */
function connectionTimes(connection: Record<string, unknown>): Partial<ConnectionSettings> {
  const ms = (v: unknown) => (typeof v === 'number' && v > 0 ? Math.round(v) : undefined);
  const c: Partial<ConnectionSettings> = {};
  const heartbeat = ms(connection.heartbeatInterval);
  const timeout = ms(connection.heartbeatTimeout);
  const reconnect = ms(connection.reconnectInterval);
  if (heartbeat) c.heartbeatIntervalMs = heartbeat;
  if (timeout) c.heartbeatTimeoutMs = timeout;
  if (reconnect) c.reconnectBaseMs = reconnect;
  return c;
}

/** One adapter per JSON format. */
export const JSON_ADAPTERS: Readonly<Record<JsonFormat, FormatAdapter>> = {
  'claude-desktop': mcpServers,
  cursor: mcpServers,
  windsurf: mcpServers,
  'xiaozhi-example': mcpServers,
  cline,
  vscode,
  'server-snippet': serverSnippet,
  'xiaozhi-tray': xiaozhiTray,
  'xiaozhi-client': xiaozhiClient,
};
