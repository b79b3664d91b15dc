import { SettingsSchema, type Settings } from '../../../shared/settings';
import { firstIssue } from '../../../shared/zod-issue';

export const CURRENT_SETTINGS_VERSION = 1;

type Raw = Record<string, unknown>;

/**
 * Each step lifts stored settings from version N to N+1. Version 0 is the shape of early builds:
 * `mcpEndpoint` (string or list) and `mcpServers` stored as in xiaozhi-client.
 */
const steps: Record<number, (raw: Raw) => Raw> = {
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
      endpoints: endpoints.map((url, i) => ({ id: `endpoint-${i + 1}`, name: i === 0 ? 'xiaozhi' : `xiaozhi-${i + 1}`, url, enabled: true })),
      servers,
    };
  },
};

export class SettingsMigrationError extends Error {}

/** Brings stored settings up to the current version, then validates them. Throws if it cannot. */
export function migrateSettings(stored: unknown): Settings {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) throw new SettingsMigrationError('the stored settings are not an object');
  let raw = stored as Raw;
  let version = typeof raw.version === 'number' ? raw.version : 0;
  if (version > CURRENT_SETTINGS_VERSION) {
    throw new SettingsMigrationError(`the stored settings are version ${version}, newer than this app understands (${CURRENT_SETTINGS_VERSION})`);
  }
  while (version < CURRENT_SETTINGS_VERSION) {
    const step = steps[version];
    if (!step) throw new SettingsMigrationError(`no migration from settings version ${version}`);
    raw = step(raw);
    version++;
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    throw new SettingsMigrationError(`the stored settings are invalid at ${issue.path || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
