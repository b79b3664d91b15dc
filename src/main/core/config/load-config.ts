import fs from 'node:fs';
import type { ImportFormat } from '../../../shared/import';
import { SettingsSchema, type Settings } from '../../../shared/settings';
import { isPlaceholderEndpoint, parseMcpConfig } from '../import/parse-config';
import { ConfigError, JsonDocument, type ConfigProblem, type JsonPath } from './json-text';
import { isRecord } from '../../../shared/is-record';

export { isPlaceholderEndpoint };

export interface LoadedConfig {
  settings: Settings;
  format: ImportFormat;
  warnings: ConfigProblem[];
}

/** Files past this size are not configs; refuse before reading them into memory. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export function checkConfigSize(file: string, bytes: number): void {
  if (bytes > MAX_CONFIG_BYTES) {
    throw new ConfigError(file, [{ path: '', message: `the file is ${(bytes / 1048576).toFixed(1)} MB; a config is at most ${MAX_CONFIG_BYTES / 1048576} MB` }]);
  }
}

/**
 * Reads a config file the headless CLI was given: ours, or any file the import understands
 * (xiaozhi-client's `xiaozhi.config.json`, the official example's `mcp_config.json`, Claude
 * Desktop, Cursor, VS Code…). `MCP_ENDPOINT` in `env` always adds an endpoint. Never writes.
 */
export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new ConfigError(file, [{ path: '', message: 'the file does not exist or cannot be read' }]);
  }
  checkConfigSize(file, stat.size);
  return parseConfigText(file, fs.readFileSync(file, 'utf8'), env);
}

/** Ours: it has our keys, or nothing at all (`{}` is a valid empty config). */
const isNative = (value: unknown) =>
  isRecord(value) && (Array.isArray(value.endpoints) || Array.isArray(value.servers) || 'version' in value || Object.keys(value).length === 0);

export function parseConfigText(file: string, text: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  let loaded: LoadedConfig;
  const trimmed = text.trimStart().replace(/^\uFEFF/, '');
  const doc = trimmed.startsWith('{') ? JsonDocument.parse(file, text) : undefined;
  if (doc && isNative(doc.value) && !('mcpServers' in (doc.value as object))) {
    const parsed = SettingsSchema.safeParse(doc.value);
    if (!parsed.success) throw new ConfigError(file, zodProblems(doc, parsed.error.issues));
    loaded = { settings: parsed.data, format: 'xiaozhi-tray', warnings: [] };
  } else {
    loaded = readForeign(file, text, env, doc);
  }
  const endpointFromEnv = env.MCP_ENDPOINT?.trim();
  if (endpointFromEnv && !isPlaceholderEndpoint(endpointFromEnv) && !loaded.settings.endpoints.some((e) => e.url === endpointFromEnv)) {
    const candidate = { id: 'env-mcp-endpoint', name: 'MCP_ENDPOINT', url: endpointFromEnv, enabled: true };
    const parsed = SettingsSchema.safeParse({ ...loaded.settings, endpoints: [...loaded.settings.endpoints, candidate] });
    if (!parsed.success) throw new ConfigError('MCP_ENDPOINT', [{ path: '', message: 'the MCP_ENDPOINT environment variable must be a ws:// or wss:// URL' }]);
    loaded.settings = parsed.data;
  }
  return loaded;
}

function zodProblems(doc: JsonDocument | undefined, issues: { path: PropertyKey[]; message: string }[], pathOf: (p: JsonPath) => JsonPath = (p) => p): ConfigProblem[] {
  return issues.map((issue) => {
    const path = pathOf(issue.path.filter((p): p is string | number => typeof p !== 'symbol'));
    return doc ? doc.problemAt(path, issue.message) : { path: path.join('.'), message: issue.message };
  });
}

function readForeign(file: string, text: string, env: NodeJS.ProcessEnv, doc: JsonDocument | undefined): LoadedConfig {
  const parsed = parseMcpConfig(file, text, env);
  if (parsed.inputs.length > 0) {
    throw new ConfigError(file, [
      { path: '', message: `needs values for ${parsed.inputs.map((i) => i.placeholder).join(', ')}; set the environment variables, or import the file with "xiaozhi-tray import"` },
    ]);
  }
  const settingsInput = {
    servers: parsed.servers,
    endpoints: parsed.endpoints.map((e, i) => ({ id: `endpoint-${i + 1}`, name: e.name, url: e.url, enabled: true })),
    tools: parsed.tools,
    ...(parsed.modelscopeApiKey ? { modelscope: { apiKey: parsed.modelscopeApiKey } } : {}),
    ...(parsed.connection ? { connection: parsed.connection } : {}),
  };
  const valid = SettingsSchema.safeParse(settingsInput);
  if (!valid.success) {
    // Map our settings paths back to where the value stood in the user's file.
    const pathOf = (p: JsonPath): JsonPath => {
      if (p[0] === 'servers' && typeof p[1] === 'number') return [...(parsed.sourcePaths[p[1]] ?? ['mcpServers']), ...p.slice(2)];
      if (p[0] === 'endpoints') return ['mcpEndpoint'];
      return p;
    };
    throw new ConfigError(file, zodProblems(doc, valid.error.issues, pathOf));
  }
  return { settings: valid.data, format: parsed.format, warnings: parsed.warnings };
}
