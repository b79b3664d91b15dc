import fs from 'node:fs';

import type { z } from 'zod';

import { cleanEndpointUrl, endpointIdentity, type EndpointUrlDebris } from '../../../shared/endpoint-url';
import type { ImportFormat } from '../../../shared/import';
import { isRecord } from '../../../shared/is-record';
import { type NameRecord, nameRecord } from '../../../shared/own';
import { problem } from '../../../shared/problem';
import { DEFAULT_LOCAL_SERVER_PORT, DEFAULT_TOOL_SET, defaultSettings, type Settings, SettingsSchema } from '../../../shared/settings';
import { issueProblem, readableIssueMessage } from '../../../shared/zod-issue';
import { secretValues } from '../secrets/bridge-secrets';
import { unknownKeys } from './config-file-writer';
import { ConfigError, type ConfigProblem, JsonDocument, type JsonPath } from './json-text';
import { CURRENT_SETTINGS_VERSION, nativeMigratedKeys, upgradeNativeConfig } from './migrations';
import { isOwnEntry, OWN_ENTRY_SKIPPED } from './own-entry';
import { isPlaceholderEndpoint, type ParsedConfig, parseMcpConfig, withoutOwnEntries } from './parse-config';
import { environmentValue, fillInputs } from './placeholders';
import { ENV_ENDPOINT_ID } from './settings-store';

export { isPlaceholderEndpoint };

export interface LoadOptions {
  /** Environment variables a foreign file may put anywhere (`--allow-env NAME`), not only in a stdio server's env. */
  allowEnv?: readonly string[];
}

export interface LoadedConfig {
  settings: Settings;
  format: ImportFormat;
  warnings: ConfigProblem[];
}

/** Files past this size are not configs; refuse before reading them into memory. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export function checkConfigSize(file: string, bytes: number): void {
  if (bytes > MAX_CONFIG_BYTES) {
    const size = bytes === MAX_CONFIG_BYTES + 1 ? `over ${MAX_CONFIG_BYTES / 1048576}` : (bytes / 1048576).toFixed(1);
    throw new ConfigError(file, [{ path: '', message: `the file is ${size} MB; a config is at most ${MAX_CONFIG_BYTES / 1048576} MB` }]);
  }
}

/**
 * Reads a config file the headless CLI was given: ours, or any file the import understands
 * (xiaozhi-client's `xiaozhi.config.json`, the official example's `mcp_config.json`, Claude
 * Desktop, Cursor, VS Code…). `MCP_ENDPOINT` in `env` always adds an endpoint. Never writes.
 */
export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): LoadedConfig {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new ConfigError(file, [{ path: '', message: 'the file does not exist or cannot be read' }]);
  }
  checkConfigSize(file, stat.size);
  return parseConfigText(file, readConfigText(file), env, options);
}

/**
 * A config file's text, read no further than a config may be long: a pipe or a device says its
 * size is 0, so the size check alone let `--config /dev/zero` read until memory ran out.
 */
export function readConfigText(file: string): string {
  const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
  let length = 0;
  const fd = fs.openSync(file, 'r');
  try {
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = fs.readSync(fd, buffer, length, buffer.length - length, null);
  } finally {
    fs.closeSync(fd);
  }
  checkConfigSize(file, length);
  return buffer.subarray(0, length).toString('utf8');
}

/** Settings keys no other app's file uses as we do (VS Code's `servers` is an object, not a list). */
const OWN_KEYS = new Set(Object.keys(SettingsSchema.shape).filter((key) => key !== 'servers' && key !== 'endpoints'));

/**
 * Ours: it has our lists or version, or only our settings (`{ "mirrors": … }`, as the README shows),
 * or nothing at all (`{}` is a valid empty config).
 */
const isNative = (value: unknown) =>
  isRecord(value) &&
  (Array.isArray(value.endpoints) ||
    Array.isArray(value.servers) ||
    'version' in value ||
    Object.keys(value).every((key) => OWN_KEYS.has(key)));

export function parseConfigText(file: string, text: string, env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): LoadedConfig {
  const trimmed = text.trimStart().replace(/^\uFEFF/, '');
  // Refused keys (__proto__, a key twice) are reported with every other problem, not instead of them.
  const doc = trimmed.startsWith('{') ? JsonDocument.parse(file, text, { keepRefused: true }) : undefined;
  let loaded: LoadedConfig;
  /** Each endpoint's URL as the file writes it, and where. */
  let sources: EndpointSource[];
  if (doc && isNative(doc.value) && !('mcpServers' in (doc.value as object))) {
    // A newer app's file: "version must be 3" would have the user write their version down, not update.
    const version = (doc.value as Record<string, unknown>).version;
    if (typeof version === 'number' && version > CURRENT_SETTINGS_VERSION) {
      const newer = { version, known: CURRENT_SETTINGS_VERSION };
      const message = `written by a newer xiaozhi-tray (settings version ${version}; this one reads up to ${CURRENT_SETTINGS_VERSION}): update xiaozhi-tray to use it`;
      throw new ConfigError(file, [{ ...doc.problemAt(['version'], message), problem: problem('config.newerVersion', newer) }]);
    }
    const parsed = SettingsSchema.safeParse(withEndpointNames(upgradeNativeConfig(doc.value as Record<string, unknown>)), {
      reportInput: true,
    });
    const problems = [...doc.refused, ...(parsed.success ? [] : zodProblems(doc, parsed.error.issues, legacyToolsPath(doc.value)))];
    if (!parsed.success || problems.length > 0) throw new ConfigError(file, problems);
    // A key the schema does not know is kept in the file but does nothing: often a typo.
    const migrated = new Set(nativeMigratedKeys(doc.value as Record<string, unknown>));
    const warnings = unknownKeys(doc.value)
      .filter(({ path }) => !(path.length === 1 && migrated.has(path[0] as string)))
      .map(({ path, key, suggestion }) => ({
        ...doc.problemAt(path, `"${key}" is not a setting and is ignored${suggestion ? `; did you mean "${suggestion}"?` : ''}`),
        problem: problem(suggestion ? 'config.unknownKeyNear' : 'config.unknownKey', { key, suggestion: suggestion ?? '' }),
      }));
    loaded = { settings: parsed.data, format: 'xiaozhi-tray', warnings };
    const listed = (doc.value as Record<string, unknown>).endpoints;
    sources = (Array.isArray(listed) ? listed : []).map((entry: unknown, index) => ({
      url: isRecord(entry) && typeof entry.url === 'string' ? entry.url : '',
      path: ['endpoints', index, 'url'],
    }));
  } else {
    ({ sources, ...loaded } = readForeign(file, text, env, doc, new Set(options.allowEnv ?? [])));
  }
  // One endpoint twice would have the two connections replace each other (the self-hosted relay
  // then forgets both): refused, naming the one that has it first. A pasted quote is taken off, and said.
  const sameTwice = duplicateEndpoints(loaded.settings, sources, doc);
  if (sameTwice.length > 0) throw new ConfigError(file, sameTwice);
  loaded.warnings.push(...cleanedEndpointWarnings(sources, doc));
  // That id marks the endpoint MCP_ENDPOINT adds, which a save leaves out: one of the file's own gets another.
  loaded.settings.endpoints = loaded.settings.endpoints.map((endpoint, _index, all) =>
    endpoint.id === ENV_ENDPOINT_ID ? { ...endpoint, id: freeEndpointId(all.map((e) => e.id)) } : endpoint,
  );
  const endpointFromEnv = env.MCP_ENDPOINT?.trim();
  if (
    endpointFromEnv &&
    !isPlaceholderEndpoint(endpointFromEnv) &&
    !loaded.settings.endpoints.some((e) => sameEndpoint(e.url, endpointFromEnv))
  ) {
    const candidate = { id: ENV_ENDPOINT_ID, name: 'MCP_ENDPOINT', url: endpointFromEnv, enabled: true };
    const parsed = SettingsSchema.safeParse({ ...loaded.settings, endpoints: [...loaded.settings.endpoints, candidate] });
    if (!parsed.success)
      throw new ConfigError('MCP_ENDPOINT', [{ path: '', message: 'the MCP_ENDPOINT environment variable must be a ws:// or wss:// URL' }]);
    loaded.settings = parsed.data;
  }
  return loaded;
}

/**
 * An endpoint written by hand needs only its `url` (as the README shows, and as `run` reads one from
 * any other program's file): a missing id is made up as for those (`endpoint-N`, one no other has),
 * a missing name is `xiaozhi` (`xiaozhi-N` after the first). A save writes them into the file.
 */
function withEndpointNames(raw: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(raw.endpoints)) return raw;
  const taken = new Set(raw.endpoints.map((e: unknown) => (isRecord(e) ? e.id : undefined)));
  let unnamed = 0;
  const endpoints = raw.endpoints.map((entry: unknown, index) => {
    if (!isRecord(entry) || (entry.id !== undefined && entry.name !== undefined)) return entry;
    let id = entry.id;
    for (let n = index + 1; id === undefined; n++) if (!taken.has(`endpoint-${n}`)) taken.add((id = `endpoint-${n}`));
    const name = entry.name ?? (unnamed++ === 0 ? 'xiaozhi' : `xiaozhi-${index + 1}`);
    return { ...entry, id, name };
  });
  return { ...raw, endpoints };
}

/** An endpoint id none of `taken` is, for a file's endpoint that had MCP_ENDPOINT's. */
function freeEndpointId(taken: string[]): string {
  let n = 1;
  while (taken.includes(`${ENV_ENDPOINT_ID}-${n}`)) n++;
  return `${ENV_ENDPOINT_ID}-${n}`;
}

const sameEndpoint = (a: string, b: string) => endpointIdentity(a) === endpointIdentity(b);

/** An endpoint's URL as the file writes it, and where it stands there. */
interface EndpointSource {
  url: string;
  path: JsonPath;
}

const problemAt = (doc: JsonDocument | undefined, path: JsonPath, message: string): ConfigProblem =>
  doc
    ? doc.problemAt(path, message)
    : {
        path: path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
          .join('')
          .replace(/^\./, ''),
        message,
      };

/**
 * Two connections with one token replace each other: the self-hosted relay then forgets the agent
 * (its tool side is gone for xiaozhi) and xiaozhi.me merges them. One endpoint per token works.
 */
function duplicateEndpoints(settings: Settings, sources: EndpointSource[], doc: JsonDocument | undefined): ConfigProblem[] {
  const seen = new Map<string, number>();
  const problems: ConfigProblem[] = [];
  settings.endpoints.forEach((endpoint, index) => {
    const key = endpointIdentity(endpoint.url);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, index);
      return;
    }
    const existing = settings.endpoints[first] as Settings['endpoints'][number];
    const where = problemAt(doc, sources[first]?.path ?? ['endpoints', first], '').path.replace(/\.url$/, '');
    problems.push(
      problemAt(
        doc,
        sources[index]?.path ?? ['endpoints', index, 'url'],
        `is the same endpoint as ${where} ("${existing.name}"): the same address and token, and xiaozhi keeps one connection per endpoint; keep one`,
      ),
    );
  });
  return problems;
}

const DEBRIS_WORDS: Record<EndpointUrlDebris, string> = {
  quotes: 'quotes',
  prefix: 'a label before it',
  lineBreaks: 'line breaks',
  invisible: 'invisible characters',
  punctuation: 'punctuation after it',
};

/** What was taken off a pasted endpoint URL (quotes, `MCP_ENDPOINT=`…), said where it stands. */
function cleanedEndpointWarnings(sources: EndpointSource[], doc: JsonDocument | undefined): ConfigProblem[] {
  const warnings: ConfigProblem[] = [];
  for (const source of sources) {
    const cleaned = cleanEndpointUrl(source.url);
    if (!cleaned.ok || cleaned.removed.length === 0) continue;
    const what = cleaned.removed.map((debris) => DEBRIS_WORDS[debris]).join(' and ');
    warnings.push(problemAt(doc, source.path, `${what} around the address were taken off; fix the file to stop this warning`));
  }
  return warnings;
}

/**
 * The schema's problems where they stand. One worded by our error map also carries its data, for a
 * reader in another language (parsed with `reportInput`, to tell a missing value from a wrong one;
 * the value itself is never kept).
 */
function zodProblems(
  doc: JsonDocument | undefined,
  issues: z.core.$ZodIssue[],
  pathOf: (p: JsonPath) => JsonPath = (p) => p,
): ConfigProblem[] {
  return issues.map((issue) => {
    const path = pathOf(issue.path.filter((p): p is string | number => typeof p !== 'symbol'));
    const found = doc ? doc.problemAt(path, issue.message) : { path: path.join('.'), message: issue.message };
    const problem = issueProblem(issue as Parameters<typeof issueProblem>[0]);
    return problem && readableIssueMessage(issue as Parameters<typeof issueProblem>[0]) === issue.message ? { ...found, problem } : found;
  });
}

/** A version 1 file keeps its switches under `tools`; problems found in the default set stand there. */
function legacyToolsPath(value: unknown): ((p: JsonPath) => JsonPath) | undefined {
  if (!isRecord(value) || !isRecord(value.tools) || 'toolSets' in value) return undefined;
  return (p) => (p[0] === 'toolSets' && p[1] === 0 && p[2] === 'tools' ? ['tools', ...p.slice(3)] : p);
}

function readForeign(
  file: string,
  text: string,
  env: NodeJS.ProcessEnv,
  doc: JsonDocument | undefined,
  allowEnv: ReadonlySet<string>,
): LoadedConfig & { sources: EndpointSource[] } {
  // Every problem in one pass: entries that could not be read, values they need, and what the
  // settings schema finds in the rest.
  const parsed = withoutOwnEntries(
    parseMcpConfig(file, text, { keepGoing: true }),
    (server) => isOwnEntry(server, DEFAULT_LOCAL_SERVER_PORT),
    OWN_ENTRY_SKIPPED,
  );
  const endpoints = parsed.endpoints.map((e, i) => ({ id: `endpoint-${i + 1}`, name: e.name, url: e.url, enabled: true }));
  const modelscope = parsed.modelscopeApiKey ? { modelscope: { apiKey: parsed.modelscopeApiKey } } : {};
  const filled = placeholderValues(parsed, env, allowEnv, secretValues({ ...defaultSettings(), endpoints, ...modelscope }, env));
  const problems = [...parsed.problems, ...filled.problems];
  const settingsInput = {
    servers: parsed.servers.map((server) => fillInputs(server, filled.values)),
    endpoints,
    // xiaozhi-client's mcpServerConfig switches are the default set's.
    toolSets: [{ id: DEFAULT_TOOL_SET, name: DEFAULT_TOOL_SET, servers: 'all' as const, tools: parsed.tools }],
    ...modelscope,
    ...(parsed.connection ? { connection: parsed.connection } : {}),
  };
  const valid = SettingsSchema.safeParse(settingsInput, { reportInput: true });
  if (!valid.success) {
    // Map our settings paths back to where the value stood in the user's file.
    const pathOf = (p: JsonPath): JsonPath => {
      if (p[0] === 'servers' && typeof p[1] === 'number') return [...(parsed.sourcePaths[p[1]] ?? ['mcpServers']), ...p.slice(2)];
      if (p[0] === 'endpoints') return typeof p[1] === 'number' ? (parsed.endpointPaths[p[1]] ?? ['mcpEndpoint']) : ['mcpEndpoint'];
      return p;
    };
    problems.push(...zodProblems(doc, valid.error.issues, pathOf));
  }
  if (problems.length > 0 || !valid.success) throw new ConfigError(file, problems);
  const sources = parsed.endpoints.map((endpoint, index) => ({ url: endpoint.url, path: parsed.endpointPaths[index] ?? ['mcpEndpoint'] }));
  return { settings: valid.data, format: parsed.format, warnings: parsed.warnings, sources };
}

/**
 * The values a foreign file run as it is (`--config`, not imported) gets for its placeholders. It
 * decides where each value goes, so `${env:NAME}` is filled only where the user's own shell would
 * have put the same value: a stdio server's env (the server inherits the environment anyway).
 * Anywhere else (a URL, a header, an argument, the command) it would send this computer's
 * environment wherever the file says: refused, unless the user allows NAME (`--allow-env NAME`).
 * Xiaozhi Tray's own secrets (and values holding one of the `known` secrets) fill none.
 * `${input:…}` and `${workspaceFolder}` need the import.
 */
function placeholderValues(
  parsed: ParsedConfig,
  env: NodeJS.ProcessEnv,
  allowEnv: ReadonlySet<string>,
  known: readonly string[],
): { values: NameRecord<string>; problems: ConfigProblem[] } {
  // Keyed by the file's placeholder ids: no prototype.
  const values = nameRecord<string>();
  const problems: ConfigProblem[] = [];
  const toImport = new Set<string>();
  for (const use of parsed.placeholders.flat()) {
    if (!use.id.startsWith('env:')) {
      toImport.add(use.id === 'workspaceFolder' ? '${workspaceFolder}' : `\${${use.id}}`);
      continue;
    }
    const name = use.id.slice(4);
    const offer = environmentValue(use.id, env, known);
    if (offer === 'own') {
      problems.push({
        ...use.at,
        message: `\${env:${name}} would hand a server ${name}, one of Xiaozhi Tray's own secrets (or a value holding one); these never fill a placeholder`,
      });
    } else if (use.field[0] !== 'env' && !allowEnv.has(name)) {
      problems.push({
        ...use.at,
        message: `\${env:${name}} would send this computer's environment variable ${name} wherever this file says; a file run with --config fills \${env:…} only in a stdio server's env. If you trust the file, allow it with --allow-env ${name}, or import it (xiaozhi-tray import) to confirm the value`,
      });
    } else if (offer === undefined) problems.push({ ...use.at, message: `needs the environment variable ${name}, which is not set` });
    else values[use.id] = offer.value;
  }
  if (toImport.size > 0)
    problems.push({
      path: '',
      message: `needs values for ${[...toImport].join(', ')}; import the file with "xiaozhi-tray import" to give them`,
    });
  return { values, problems };
}
