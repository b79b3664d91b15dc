import { DEFAULT_TOOL_SET, type Settings, SettingsSchema } from '../../../shared/settings';
import { firstIssue } from '../../../shared/zod-issue';

export const CURRENT_SETTINGS_VERSION = 3;

type Raw = Record<string, unknown>;

/**
 * Who wrote the stored settings: the app's own store (every setting, defaults included, at each save)
 * or a config file (its writer adds no default the file did not have: what it holds, someone chose).
 */
export type SettingsOrigin = 'store' | 'file';

/**
 * Each step lifts stored settings from version N to N+1. Version 0 is the shape of early builds:
 * `mcpEndpoint` (string or list) and `mcpServers` stored as in xiaozhi-client.
 */
const steps: Record<number, (raw: Raw, origin: SettingsOrigin) => Raw> = {
  0: (raw) => {
    const endpoints = ([] as unknown[]).concat(raw.mcpEndpoint ?? []).filter((u): u is string => typeof u === 'string');
    const servers = Object.entries((raw.mcpServers as Record<string, Raw> | undefined) ?? {}).map(([name, entry]) => ({
      name,
      ...entry,
      transport: entry.command ? 'stdio' : entry.type === 'sse' ? 'sse' : 'streamable-http',
    }));
    const { mcpEndpoint: _e, mcpServers: _s, ...rest } = raw;
    return {
      ...rest,
      version: 1,
      endpoints: endpoints.map((url, i) => ({
        id: `endpoint-${i + 1}`,
        name: i === 0 ? 'xiaozhi' : `xiaozhi-${i + 1}`,
        url,
        enabled: true,
      })),
      servers,
    };
  },
  /** Tool sets: today's per-tool switches become the default set, which every endpoint serves. */
  1: (raw) => {
    const { tools, ...rest } = raw;
    const sets = Array.isArray(raw.toolSets) ? (raw.toolSets as unknown[]) : [];
    const hasDefault = sets.some(
      (set) => typeof set === 'object' && set !== null && ((set as Raw).id ?? (set as Raw).name) === DEFAULT_TOOL_SET,
    );
    const defaultSet = { id: DEFAULT_TOOL_SET, name: DEFAULT_TOOL_SET, servers: 'all', tools: tools ?? {} };
    return { ...rest, version: 2, toolSets: hasDefault ? sets : [defaultSet, ...sets] };
  },
  /**
   * Download sources: version 2's store saved `preset: 'default'` (the official sites) for everyone, chosen
   * or not; now an absent preset means "not chosen" and the place decides (the mainland China mirrors
   * there). A store's 'default' becomes "not chosen", unless own sources are kept beside it (the user went
   * to "my own sources" and came back: a choice). A config file's is the user's and stays.
   */
  2: (raw, origin) => {
    const mirrors = raw.mirrors;
    if (origin !== 'store' || typeof mirrors !== 'object' || mirrors === null) return { ...raw, version: 3 };
    const { preset, ...sources } = mirrors as Raw;
    const unchosen = preset === 'default' && Object.keys(sources).length === 0;
    return { ...raw, version: 3, ...(unchosen ? { mirrors: sources } : {}) };
  },
};

/**
 * Lifts stored settings to the current version without validating them (a config file's loader
 * validates afterwards, to say where each problem stands). Unknown or newer versions pass as they are.
 */
export function upgradeRawSettings(stored: Raw, origin: SettingsOrigin): Raw {
  let raw = stored;
  let version = typeof raw.version === 'number' ? raw.version : 0;
  while (version < CURRENT_SETTINGS_VERSION) {
    const step = steps[version];
    if (!step) return raw;
    raw = step(raw, origin);
    version++;
  }
  return raw;
}

/** A native config file written by hand often has no `version`: its shape is that of version 1 or later. */
export function upgradeNativeConfig(value: Raw): Raw {
  return upgradeRawSettings(typeof value.version === 'number' ? value : { ...value, version: 1 }, 'file');
}

/** The top-level keys each step moves elsewhere (a file of that version has them; later ones do not). */
const consumedKeys: Record<number, string[]> = { 0: ['mcpEndpoint', 'mcpServers'], 1: ['tools'] };

/**
 * The top-level keys of a native config file that the migrations read and move (version 1's
 * `tools`): they are settings, not unknown keys, and the file written back no longer has them.
 */
export function nativeMigratedKeys(value: Raw): string[] {
  const version = typeof value.version === 'number' ? value.version : 1;
  const keys: string[] = [];
  for (let v = version; v < CURRENT_SETTINGS_VERSION; v++) keys.push(...(consumedKeys[v] ?? []).filter((key) => Object.hasOwn(value, key)));
  return keys;
}

export class SettingsMigrationError extends Error {}

/** Brings the app's stored settings up to the current version, then validates them. Throws if it cannot. */
export function migrateSettings(stored: unknown): Settings {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
    throw new SettingsMigrationError('the stored settings are not an object');
  const version = typeof (stored as Raw).version === 'number' ? ((stored as Raw).version as number) : 0;
  if (version > CURRENT_SETTINGS_VERSION) {
    throw new SettingsMigrationError(
      `the stored settings are version ${version}, newer than this app understands (${CURRENT_SETTINGS_VERSION})`,
    );
  }
  if (!Number.isInteger(version) || version < 0) throw new SettingsMigrationError(`no migration from settings version ${version}`);
  const raw = upgradeRawSettings(stored as Raw, 'store');
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    throw new SettingsMigrationError(`the stored settings are invalid at ${issue.path || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
