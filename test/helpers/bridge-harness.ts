import path from 'node:path';
import { Bridge } from '../../src/main/core/bridge';
import { MemorySettingsStore } from '../../src/main/core/config/settings-store';
import { LogBook } from '../../src/main/core/logs/log-book';
import type { Supervision } from '../../src/main/core/servers/child-server';
import { SettingsSchema, type ServerSettings, type Settings, type SettingsInput } from '../../src/shared/settings';

export const FIXTURE = path.resolve(__dirname, '../fixtures/fixture-server.mjs');

export function fixtureServer(name: string, env: Record<string, string> = {}, extra: Partial<ServerSettings> = {}): ServerSettings {
  return { name, transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: name, ...env }, enabled: true, ...extra } as ServerSettings;
}

/** Fast timings so fault tests finish in well under a second each. */
export const fastConnection = {
  heartbeatIntervalMs: 200,
  heartbeatTimeoutMs: 200,
  connectTimeoutMs: 2000,
  reconnectBaseMs: 50,
  reconnectMaxMs: 300,
  stableAfterMs: 60_000,
};

export const fastSupervision: Partial<Supervision> = {
  restartBaseMs: 50,
  restartMaxMs: 200,
  crashWindowMs: 10_000,
  maxCrashes: 3,
  startTimeoutMs: 15_000,
  stopGraceMs: 1000,
};

export interface Harness {
  bridge: Bridge;
  logBook: LogBook;
  store: MemorySettingsStore;
  settings: Settings;
}

export function makeBridge(input: SettingsInput, supervision: Partial<Supervision> = fastSupervision): Harness {
  const settings = SettingsSchema.parse({ connection: fastConnection, ...input });
  const store = new MemorySettingsStore(settings);
  const logBook = new LogBook();
  // No state file: a test must never touch the user's own app folder.
  const bridge = new Bridge({ store, logBook, supervision, listChangedDebounceMs: 20, stateDir: null });
  return { bridge, logBook, store, settings };
}

export function logText(logBook: LogBook): string {
  return logBook.entries().map((e) => `[${e.source}] ${e.message}`).join('\n');
}
