import fs from 'node:fs';
import { SettingsSchema, type Settings, type ServerSettings, type EndpointSettings } from '../../../shared/settings';
import { ConfigError, JsonDocument, type ConfigProblem, type JsonPath } from './json-text';
import { convertServerEntry } from './server-entry';

export type ConfigFormat = 'xiaozhi-tray' | 'xiaozhi-client' | 'mcp-servers';

export interface LoadedConfig {
  settings: Settings;
  format: ConfigFormat;
  warnings: ConfigProblem[];
}

/** Files past this size are not configs; refuse before reading them into memory. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** xiaozhi-client writes placeholder text containing 请填写 ("please fill in") for an unset endpoint. */
export function isPlaceholderEndpoint(value: string): boolean {
  return value.includes('请填写') || value.trim() === '' || /<.*>/.test(value);
}

export function detectFormat(value: unknown): ConfigFormat | undefined {
  if (!isRecord(value)) return undefined;
  if ('mcpEndpoint' in value || 'mcpServerConfig' in value || 'modelscope' in value) return 'xiaozhi-client';
  if ('mcpServers' in value) return 'mcp-servers';
  if ('endpoints' in value || 'servers' in value || 'version' in value) return 'xiaozhi-tray';
  return undefined;
}

/**
 * Reads a config file the headless CLI was given: ours, xiaozhi-client's `xiaozhi.config.json`,
 * or an `mcpServers` file like the official example's `mcp_config.json`. `MCP_ENDPOINT` in `env`
 * always adds an endpoint. Never writes to the file.
 */
export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new ConfigError(file, [{ path: '', message: 'the file does not exist or cannot be read' }]);
  }
  if (stat.size > MAX_CONFIG_BYTES) {
    throw new ConfigError(file, [{ path: '', message: `the file is ${(stat.size / 1048576).toFixed(1)} MB; a config is at most ${MAX_CONFIG_BYTES / 1048576} MB` }]);
  }
  return parseConfigText(file, fs.readFileSync(file, 'utf8'), env);
}

export function parseConfigText(file: string, text: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const doc = JsonDocument.parse(file, text);
  const format = detectFormat(doc.value);
  if (!format) {
    throw new ConfigError(file, [
      { path: '', message: 'this is not an MCP config: expected "endpoints"/"servers" (Xiaozhi Tray), "mcpEndpoint" (xiaozhi-client) or "mcpServers"' },
    ]);
  }
  const loaded = format === 'xiaozhi-tray' ? readNative(file, doc) : readForeign(file, doc, format);
  const endpointFromEnv = env.MCP_ENDPOINT?.trim();
  if (endpointFromEnv && !isPlaceholderEndpoint(endpointFromEnv) && !loaded.settings.endpoints.some((e) => e.url === endpointFromEnv)) {
    const candidate = { id: 'env-mcp-endpoint', name: 'MCP_ENDPOINT', url: endpointFromEnv, enabled: true };
    const parsed = SettingsSchema.safeParse({ ...loaded.settings, endpoints: [...loaded.settings.endpoints, candidate] });
    if (!parsed.success) throw new ConfigError('MCP_ENDPOINT', [{ path: '', message: 'the MCP_ENDPOINT environment variable must be a ws:// or wss:// URL' }]);
    loaded.settings = parsed.data;
  }
  return loaded;
}

function zodProblems(doc: JsonDocument, issues: { path: PropertyKey[]; message: string }[], pathOf: (p: JsonPath) => JsonPath = (p) => p): ConfigProblem[] {
  return issues.map((issue) => doc.problemAt(pathOf(issue.path.filter((p): p is string | number => typeof p !== 'symbol')), issue.message));
}

function readNative(file: string, doc: JsonDocument): LoadedConfig {
  const parsed = SettingsSchema.safeParse(doc.value);
  if (!parsed.success) throw new ConfigError(file, zodProblems(doc, parsed.error.issues));
  return { settings: parsed.data, format: 'xiaozhi-tray', warnings: [] };
}

function readForeign(file: string, doc: JsonDocument, format: ConfigFormat): LoadedConfig {
  const root = doc.value as Record<string, unknown>;
  const problems: ConfigProblem[] = [];
  const warnings: ConfigProblem[] = [];

  const servers: ServerSettings[] = [];
  const serverPaths: JsonPath[] = [];
  const mcpServers = root.mcpServers;
  if (mcpServers !== undefined && !isRecord(mcpServers)) problems.push(doc.problemAt(['mcpServers'], 'must be an object of server names to servers'));
  for (const [name, entry] of Object.entries(isRecord(mcpServers) ? mcpServers : {})) {
    const result = convertServerEntry(name, entry, ['mcpServers', name]);
    for (const w of result.warnings) warnings.push(doc.problemAt(w.path, w.message));
    for (const p of result.problems) problems.push(doc.problemAt(p.path, p.message));
    if (result.server) {
      servers.push(result.server);
      serverPaths.push(['mcpServers', name]);
    }
  }

  const endpoints: EndpointSettings[] = [];
  const settingsInput: Record<string, unknown> = { servers, endpoints };
  if (format === 'xiaozhi-client') {
    const raw = root.mcpEndpoint;
    const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : raw === undefined ? [] : null;
    if (list === null) problems.push(doc.problemAt(['mcpEndpoint'], 'must be a URL or a list of URLs'));
    (list ?? []).forEach((url, index) => {
      const path = typeof raw === 'string' ? ['mcpEndpoint'] : ['mcpEndpoint', index];
      if (typeof url !== 'string') problems.push(doc.problemAt(path, 'must be a ws:// or wss:// URL'));
      else if (!isPlaceholderEndpoint(url)) {
        endpoints.push({ id: `endpoint-${index + 1}`, name: index === 0 ? 'xiaozhi' : `xiaozhi-${index + 1}`, url: url.trim(), enabled: true });
      }
    });
    const tools: Record<string, Record<string, { enabled: boolean; description?: string }>> = {};
    const serverConfig = root.mcpServerConfig;
    if (isRecord(serverConfig)) {
      for (const [serverName, config] of Object.entries(serverConfig)) {
        const toolMap = isRecord(config) && isRecord(config.tools) ? config.tools : {};
        for (const [toolName, toolConfig] of Object.entries(toolMap)) {
          if (!isRecord(toolConfig)) continue;
          const entry: { enabled: boolean; description?: string } = { enabled: toolConfig.enable !== false };
          if (typeof toolConfig.description === 'string' && toolConfig.description.trim() !== '') entry.description = toolConfig.description;
          (tools[serverName] ??= {})[toolName] = entry;
        }
      }
    }
    settingsInput.tools = tools;
    const modelscope = root.modelscope;
    if (isRecord(modelscope) && typeof modelscope.apiKey === 'string' && modelscope.apiKey.trim() !== '') {
      settingsInput.modelscope = { apiKey: modelscope.apiKey.trim() };
    }
    const connection = root.connection;
    if (isRecord(connection)) {
      const ms = (v: unknown) => (typeof v === 'number' && v > 0 ? Math.round(v) : undefined);
      const c: Record<string, number> = {};
      const heartbeat = ms(connection.heartbeatInterval);
      const timeout = ms(connection.heartbeatTimeout);
      const reconnect = ms(connection.reconnectInterval);
      if (heartbeat) c.heartbeatIntervalMs = heartbeat;
      if (timeout) c.heartbeatTimeoutMs = timeout;
      if (reconnect) c.reconnectBaseMs = reconnect;
      settingsInput.connection = c;
    }
  }

  if (problems.length > 0) throw new ConfigError(file, problems);
  const parsed = SettingsSchema.safeParse(settingsInput);
  if (!parsed.success) {
    // Map our settings paths back to where the value stood in the user's file.
    const pathOf = (p: JsonPath): JsonPath => {
      if (p[0] === 'servers' && typeof p[1] === 'number') return [...(serverPaths[p[1]] ?? ['mcpServers']), ...p.slice(2)];
      if (p[0] === 'endpoints') return ['mcpEndpoint'];
      return p;
    };
    throw new ConfigError(file, zodProblems(doc, parsed.error.issues, pathOf));
  }
  return { settings: parsed.data, format, warnings };
}
