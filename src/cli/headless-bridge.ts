import path from 'node:path';

import { Bridge, type BridgeOptions } from '../main/core/bridge/bridge';
import { defaultCacheDir } from '../main/core/catalogue/catalogue-service';
import type { OptionSpec } from '../main/core/command-line/args';
import { type ParsedArgs, stringOption, UsageError } from '../main/core/command-line/args';
import type { LoadedConfig } from '../main/core/config/load-config';
import { MemorySettingsStore, type SettingsStore } from '../main/core/config/settings-store';
import { LogBook, type Logger } from '../main/core/logs/log-book';
import { type ServerWatchdog, startServerWatchdog } from '../main/core/servers/server-watchdog';
import type { Settings } from '../shared/settings';
import type { LogLevel } from '../shared/status';
import {
  ALLOW_ENV_OPTION,
  allowEnvArg,
  type CliContext,
  CONFIG_OPTION,
  configArg,
  FETCH_RUNTIMES_OPTION,
  JSON_OPTION,
  logOptions,
  runtimesDirArg,
} from './command';
import { configFileOr, loadOrExplain } from './config-file';
import { waitForStarts } from './first-runs';
import { findLauncher } from './launcher-watch';
import { logChoice, type LogFormat, logSink } from './log-output';
import { ShutdownGuard } from './shutdown-guard';

export interface HeadlessOptions {
  store: SettingsStore;
  log: { stream: NodeJS.WritableStream; level: LogLevel; format: LogFormat };
  /** More to stop with the bridge (the web UI). */
  alsoStop?: () => Promise<void> | undefined;
  /** This run's choices that are never saved (`--tool-mode`, `--mcp-port`). */
  bridge?: Pick<
    BridgeOptions,
    'toolMode' | 'localServer' | 'runtimesDir' | 'runtimesFetch' | 'configDir' | 'listEndpointTools' | 'pinShownIn' | 'copies'
  >;
}

export interface Headless {
  bridge: Bridge;
  logBook: LogBook;
  log: Logger;
  guard: ShutdownGuard;
  /** Stops the servers if this process is killed; `close()` once they are stopped. */
  watchdog: ServerWatchdog | undefined;
}

/**
 * The composition root of a headless process: one log book, one bridge, and the guard that makes
 * sure whatever ends the process (signals, a vanished launcher, a crash) stops every server first.
 */
export function startHeadless(ctx: CliContext, options: HeadlessOptions): Headless {
  const logBook = new LogBook({ sinks: [logSink(options.log.stream, options.log.level, options.log.format, ctx)] });
  const log = logBook.logger('app');
  const bridge = new Bridge({
    store: options.store,
    logBook,
    version: ctx.version,
    env: ctx.env,
    cacheDir: defaultCacheDir(ctx.env, ctx.platform, ctx.home),
    ...options.bridge,
  });
  const launcher = findLauncher(ctx.env, ctx.platform);
  // Whatever the guard cannot catch (kill -9, the OOM killer), the watchdog does.
  const watchdog = ctx.watchdog ? startServerWatchdog(bridge, ctx.watchdog, log) : undefined;
  const guard = new ShutdownGuard({
    log,
    stop: async () => {
      await Promise.all([bridge.stop(), options.alsoStop?.()]);
      // A save whose rename Windows held up is still being retried: it lands (or is said) before the exit.
      await options.store.settled?.().catch(() => undefined);
      watchdog?.close();
    },
    killNow: () => bridge.killAllNow(),
    watch: launcher.pids,
    launcherGone: launcher.goneAtStart,
  }).install();
  return { bridge, logBook, log, guard, watchdog };
}

/**
 * For the commands that look at servers without serving xiaozhi (tools, servers, call): start the
 * servers of `settings` (endpoints replaced by `endpoints`), wait until each is up or has failed (at most the start grace, as a tools/list would),
 * run `work`, stop everything. Ctrl+C meanwhile stops the servers and ends the command (130).
 */
export async function withServers(
  ctx: CliContext,
  settings: Settings,
  log: { level: LogLevel; format: LogFormat },
  work: (headless: Headless) => Promise<number>,
  endpoints: Settings['endpoints'] = [],
  /** `--fetch-runtimes`: where a missing Node.js or uv is fetched to; the config file's folder, for relative paths in it. */
  paths: Pick<BridgeOptions, 'runtimesDir' | 'configDir'> = {},
  /** `--wait SECONDS`: how long to wait for servers to start, whatever comes up (default: while they keep coming up). */
  waitMs?: number,
): Promise<number> {
  // Never the local MCP server: it would fail on the running app's port, or write (then remove)
  // the state file `connect` reads to find the running app. The tools listed are an endpoint's,
  // though none is connected: `tools` shows what xiaozhi gets.
  const headless = startHeadless(ctx, {
    store: new MemorySettingsStore({ ...settings, endpoints }),
    log: { stream: ctx.stderr, ...log },
    bridge: { localServer: { enabled: false }, listEndpointTools: true, ...paths },
  });
  const { bridge, guard } = headless;
  try {
    bridge.start();
    // While servers keep coming up, and no longer than the start grace with none coming up: a server
    // that hangs at start is shown as starting. A first run seen downloading its package is waited for
    // (and said): it is not stuck. What is still starting is said as the wait goes.
    const interrupted = await Promise.race([
      waitForStarts(bridge, { idleMs: settings.limits.startGraceMs, waitMs, say: ctx.err, t: ctx.t }).then(() => undefined),
      guard.stopped,
    ]);
    if (interrupted !== undefined) return interrupted;
    const done = await Promise.race([work(headless), guard.stopped]);
    return guard.isStopping ? await guard.stopped : done;
  } finally {
    if (guard.isStopping) await guard.stopped;
    else await bridge.stop();
    headless.watchdog?.close();
    guard.dispose();
  }
}

/** The endpoint `--endpoint NAME` names (its name or id); undefined without the option. */
export function endpointOption(args: ParsedArgs, settings: Settings): Settings['endpoints'][number] | undefined {
  const wanted = stringOption(args, 'endpoint');
  if (wanted === undefined) return undefined;
  const endpoint = settings.endpoints.find((e) => e.id === wanted || e.name === wanted);
  if (endpoint) return endpoint;
  const names = settings.endpoints.map((e) => e.name);
  throw names.length
    ? UsageError.of('cli.endpoint.unknownOf', { wanted, names: names.join(', ') })
    : UsageError.of('cli.endpoint.unknown', { wanted });
}

/** `--wait SECONDS`: how long the commands that look at servers wait for them to start. */
export const WAIT_OPTION: OptionSpec = { name: 'wait', value: 'SECONDS', help: 'cli.opt.wait' };

/** `--wait` in milliseconds, or undefined without it; a usage error when it is not a number of seconds. */
export function waitArg(args: ParsedArgs): number | undefined {
  const value = stringOption(args, 'wait');
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!(value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0 && seconds <= 3600)) throw UsageError.of('cli.wait.bad', { value });
  return Math.round(seconds * 1000);
}

/** The options of the commands that start the servers to look at them: the config, --json, --wait, the log options. */
export const LOOK_OPTIONS = [
  CONFIG_OPTION,
  ALLOW_ENV_OPTION,
  JSON_OPTION,
  FETCH_RUNTIMES_OPTION,
  WAIT_OPTION,
  ...logOptions('warn', 'stderr'),
];

/** Loads the command's config (or explains what is wrong with it), then runs `work` with its servers started. */
export function lookAtServers(
  args: ParsedArgs,
  ctx: CliContext,
  command: string,
  work: (headless: Headless, loaded: LoadedConfig) => Promise<number>,
): Promise<number> {
  const file = configFileOr(configArg(args), ctx);
  const loaded = loadOrExplain(ctx, file, command, allowEnvArg(args));
  if (!loaded) return Promise.resolve(1);
  const configDir = file === undefined ? undefined : path.dirname(path.resolve(ctx.cwd, file));
  const runtimesDir = runtimesDirArg(args, ctx);
  const waitMs = waitArg(args);
  return withServers(
    ctx,
    loaded.settings,
    logChoice(args, 'warn'),
    (headless) => work(headless, loaded),
    [],
    {
      ...(runtimesDir ? { runtimesDir } : {}),
      ...(configDir ? { configDir } : {}),
    },
    waitMs,
  );
}
