import path from 'node:path';
import { Bridge, type BridgeOptions } from '../../src/main/core/bridge';
import type { FakeXiaozhi } from './fake-xiaozhi';
import { MemorySettingsStore } from '../../src/main/core/config/settings-store';
import { LogBook } from '../../src/main/core/logs/log-book';
import type { Supervision } from '../../src/main/core/servers/child-server';
import { SettingsSchema, type StdioServerSettings, type Settings, type SettingsInput } from '../../src/shared/settings';

export const FIXTURE = path.resolve(__dirname, '../fixtures/fixture-server.mjs');

export function fixtureServer(
  name: string,
  env: Record<string, string> = {},
  extra: Partial<StdioServerSettings> = {},
): StdioServerSettings {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURE],
    env: { FIXTURE_NAME: name, ...env },
    enabled: true,
    ...extra,
  } as StdioServerSettings;
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

/**
 * For tests that start many servers in the test process: a busy event loop must not look like a
 * dead socket (fastConnection's 200 ms pong deadline would reconnect mid-test).
 */
export const patientConnection = { ...fastConnection, heartbeatIntervalMs: 5000, heartbeatTimeoutMs: 5000 };

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

export function makeBridge(
  input: SettingsInput,
  supervision: Partial<Supervision> = fastSupervision,
  options: Partial<BridgeOptions> = {},
): Harness {
  // English unless a test says otherwise: what the bridge words for xiaozhi follows the settings' language.
  const settings = SettingsSchema.parse({ connection: fastConnection, ui: { language: 'en' }, ...input });
  const store = new MemorySettingsStore(settings);
  const logBook = new LogBook();
  // No state file: a test must never touch the user's own app folder.
  const bridge = new Bridge({ store, logBook, supervision, listChangedDebounceMs: 20, stateDir: null, ...options });
  return { bridge, logBook, store, settings };
}

/** The per-tool switches and descriptions of the default set ("all"), as tests used to read `settings.tools`. */
export function defaultSetTools(settings: Settings): Settings['toolSets'][number]['tools'] {
  return settings.toolSets.find((set) => set.id === 'all')?.tools ?? {};
}

export function logText(logBook: LogBook): string {
  return logBook
    .entries()
    .map((e) => `[${e.source}] ${e.message}`)
    .join('\n');
}

export interface EndpointContext {
  xiaozhi?: FakeXiaozhi;
  harness?: Harness;
}

/**
 * The usual cast of an endpoint test: a fake xiaozhi and a bridge, both torn down after each test.
 * Call at the top of a test file; set `ctx.xiaozhi` and `ctx.harness` in the tests.
 */
export function withEndpointTeardown(afterEach: (fn: () => Promise<void>) => void): EndpointContext {
  const ctx: EndpointContext = {};
  afterEach(async () => {
    await ctx.harness?.bridge.stop();
    await ctx.xiaozhi?.close();
    delete ctx.harness;
    delete ctx.xiaozhi;
  });
  return ctx;
}
