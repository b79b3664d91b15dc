import path from 'node:path';

import { Bridge, type BridgeOptions } from '../../src/main/core/bridge/bridge';
import { MemorySettingsStore } from '../../src/main/core/config/settings-store';
import { LogBook } from '../../src/main/core/logs/log-book';
import type { Supervision } from '../../src/main/core/servers/child-server';
import { type Settings, type SettingsInput, SettingsSchema, type StdioServerSettings } from '../../src/shared/settings';
import { type FakeSession, FakeXiaozhi } from './fake-xiaozhi';
import { scaled } from './time-scale';

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

/**
 * The connection every test bridge gets unless it asks for another: quick reconnects, and heartbeats
 * that never fire during a test. A test that is not about heartbeats must not depend on a pong
 * arriving within a deadline: on a busy machine it does not, and the bridge reconnects mid-test.
 */
export const testConnection = {
  heartbeatIntervalMs: 600_000,
  heartbeatTimeoutMs: 60_000,
  connectTimeoutMs: Math.min(120_000, scaled(15_000)),
  reconnectBaseMs: 50,
  reconnectMaxMs: 300,
  stableAfterMs: 60_000,
};

/** Fast heartbeats (a 200 ms ping, a 200 ms pong deadline): only for the tests about heartbeats. */
export const fastConnection = { ...testConnection, heartbeatIntervalMs: 200, heartbeatTimeoutMs: 200 };

/** The same as the default now; kept for the tests that named it when the default was fast. */
export const patientConnection = testConnection;

export const fastSupervision: Partial<Supervision> = {
  restartBaseMs: 50,
  restartMaxMs: 200,
  // Three crashes must fit in it however slow each start is (a node start took over 3 s under load).
  crashWindowMs: scaled(10_000),
  maxCrashes: 3,
  startTimeoutMs: scaled(15_000),
  stopGraceMs: scaled(1000),
};

/** A crashed server waits half a minute for its restart: the test looks at the crash, not the next start. */
export const slowRestarts: Partial<Supervision> = {
  restartBaseMs: 30_000,
  restartMaxMs: 30_000,
  maxCrashes: 5,
  crashWindowMs: 60_000,
  startTimeoutMs: scaled(10_000),
  stopGraceMs: 500,
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
  const settings = SettingsSchema.parse({ connection: testConnection, ui: { language: 'en' }, ...input });
  const store = new MemorySettingsStore(settings);
  const logBook = new LogBook();
  // No state file: a test must never touch the user's own app folder.
  // An endpoint without a tool mode is served every tool, as before the automatic mode: most tests
  // count tools or call them by name past the budget. The automatic mode's tests ask for it.
  const bridge = new Bridge({ store, logBook, supervision, listChangedDebounceMs: 20, stateDir: null, defaultToolMode: 'all', ...options });
  return { bridge, logBook, store, settings };
}

type EndpointInput = NonNullable<SettingsInput['endpoints']>[number];

/**
 * The usual start of an endpoint test: a fake xiaozhi, a started bridge serving it (endpoint "home",
 * id e1, unless `endpoint` says otherwise) with its servers settled, and the first session, initialized.
 * Stop both with `tearDown`, or hand them to `withEndpointTeardown`'s context.
 */
export async function startServing(
  input: SettingsInput = {},
  endpoint: Partial<EndpointInput> = {},
  supervision: Partial<Supervision> = fastSupervision,
): Promise<{ xiaozhi: FakeXiaozhi; harness: Harness; session: FakeSession }> {
  const xiaozhi = await FakeXiaozhi.start();
  const harness = makeBridge({ ...input, endpoints: [{ id: 'e1', name: 'home', url: xiaozhi.url(), ...endpoint }] }, supervision);
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  const session = await xiaozhi.connection(0);
  await session.initialize();
  return { xiaozhi, harness, session };
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
    await tearDown(ctx.harness, ctx.xiaozhi);
    delete ctx.harness;
    delete ctx.xiaozhi;
  });
  return ctx;
}

/**
 * A fake xiaozhi, and a started bridge with `input` that serves it as the endpoint "home" (id e):
 * kept in `ctx`, so both are torn down after the test.
 */
export async function startServingHome(ctx: EndpointContext, input: SettingsInput): Promise<Harness & { xiaozhi: FakeXiaozhi }> {
  const xiaozhi = await FakeXiaozhi.start();
  ctx.xiaozhi = xiaozhi;
  const harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }], ...input });
  ctx.harness = harness;
  harness.bridge.start();
  return { ...harness, xiaozhi };
}

/** Stops a test's bridge (its servers with it), then closes its fake xiaozhi; either may be missing. */
export async function tearDown(harness: Harness | undefined, xiaozhi?: FakeXiaozhi): Promise<void> {
  await harness?.bridge.stop();
  await xiaozhi?.close();
}
