import path from 'node:path';

import type { RuntimeAvailability } from '../../../shared/host';
import { CHINA_MIRRORS, type MirrorUrls, sourceAdvice } from '../../../shared/mirrors';
import { own, setOwn } from '../../../shared/own';
import { problem } from '../../../shared/problem';
import { installCommand, RUNTIME_LABEL, type RuntimeName, runtimeNeed } from '../../../shared/runtime-need';
import type { StdioServerSettings } from '../../../shared/settings';
import type { ServerRuntime } from '../../../shared/status';
import { ProblemError } from '../problems/server-problems';
import { findOnPath } from '../system/find-on-path';

/** A private runtime ready in the app's data folder: the folder to put first on a child's PATH. */
export interface PreparedRuntime {
  binDir: string;
  version: string;
}

/** Fetches runtimes into the app's data folder (the desktop app's store; headless only when asked). */
export interface RuntimeProvider {
  /** The runtime, fetched first if it is not there yet; `onProgress` hears the download's percent. */
  ensure(runtime: RuntimeName, onProgress: (percent: number | undefined) => void): Promise<PreparedRuntime>;
  /** The version this provider would fetch (for the log line before it does). */
  version(runtime: RuntimeName): string;
  /** The runtime if it was fetched before. */
  installed(runtime: RuntimeName): PreparedRuntime | undefined;
  /**
   * False: a server starting does not fetch its runtime (a headless run with its web page, without
   * --fetch-runtimes); it uses one fetched before, or one the person asks for (Download uv).
   */
  readonly fetchesOnStart?: boolean;
}

const PROGRAM_OF: Record<RuntimeName, string> = { node: 'npx', uv: 'uvx' };

/** Whether each runtime is the user's (its runner on PATH), the app's, one the app would fetch, or missing. */
export function runtimeAvailability(
  env: NodeJS.ProcessEnv,
  provider: RuntimeProvider | undefined,
  platform: NodeJS.Platform = process.platform,
): Record<RuntimeName, RuntimeAvailability> {
  const of = (runtime: RuntimeName): RuntimeAvailability =>
    findOnPath(PROGRAM_OF[runtime], env, platform)
      ? 'yours'
      : provider?.installed(runtime)
        ? 'app'
        : provider && provider.fetchesOnStart !== false
          ? 'fetch'
          : 'missing';
  return { node: of('node'), uv: of('uv') };
}

/**
 * What a missing runtime's problem says: the install command from the sources chosen, and, with the
 * official ones (`advice`), the one from the mainland China mirrors too, for a Chinese reader (GitHub
 * and astral.sh are often out of reach there; the catalogue names the same command).
 */
export function runtimeMissingParams(
  need: RuntimeName,
  command: string,
  sources: MirrorUrls,
  platform: NodeJS.Platform = process.platform,
): { runtime: string; command: string; install: string; installChina?: string; advice: string } {
  // Whether to tell the user to choose the mainland China mirrors first, or they did.
  const advice = sourceAdvice(need === 'node' ? sources.nodeDist : (sources.uvIndex ?? sources.pypiIndex));
  return {
    runtime: RUNTIME_LABEL[need],
    command,
    install: installCommand(need, platform, sources, process.arch),
    ...(advice === 'official' ? { installChina: installCommand(need, platform, CHINA_MIRRORS, process.arch) } : {}),
    advice,
  };
}

/** How one child will run: whose runtime, and what to put first on its PATH (the app's runtime only). */
export interface ChildRuntime {
  runtime?: ServerRuntime;
  pathPrefix?: string;
}

/**
 * The runtime a stdio server's command needs, decided for this start: the user's own when its
 * program is on the PATH the child will get, else the app's (fetched if needed), else a
 * `server.runtimeMissing` problem naming the exact install command for this OS, from the download
 * sources chosen (`sources`: in mainland China, the mirrors').
 */
export async function prepareChildRuntime(
  settings: StdioServerSettings,
  baseEnv: NodeJS.ProcessEnv,
  provider: RuntimeProvider | undefined,
  sources: MirrorUrls,
  onFetching: (runtime: ServerRuntime) => void,
  platform: NodeJS.Platform = process.platform,
): Promise<ChildRuntime> {
  const need = runtimeNeed(settings.command, platform);
  if (!need) return {};
  const env = { ...baseEnv, ...settings.env };
  const cwdCommand = settings.cwd ? path.resolve(settings.cwd, settings.command) : undefined;
  if (findOnPath(settings.command, env, platform) || (cwdCommand && findOnPath(cwdCommand, env, platform)))
    return { runtime: { name: need, from: 'yours' } };
  if (!provider || (provider.fetchesOnStart === false && !provider.installed(need)))
    throw new ProblemError(
      problem('server.runtimeMissing', {
        ...runtimeMissingParams(need, settings.command, sources, platform),
        // A window can download it (Download uv): said instead of --fetch-runtimes.
        ...(provider ? { reason: 'onRequest' } : {}),
      }),
    );
  const version = provider.version(need);
  const prepared = await provider.ensure(need, (percent) =>
    onFetching({ name: need, from: 'app', version, fetching: percent === undefined ? {} : { percent } }),
  );
  return { runtime: { name: need, from: 'app', version: prepared.version }, pathPrefix: prepared.binDir };
}

/** `env` with `dir` first on its PATH (whatever case Windows gave the variable's name). */
export function withPathFirst(env: Record<string, string>, dir: string, platform: NodeJS.Platform = process.platform): void {
  const key = Object.keys(env).find((name) => (platform === 'win32' ? name.toUpperCase() === 'PATH' : name === 'PATH')) ?? 'PATH';
  const current = own(env, key);
  setOwn(env, key, current ? `${dir}${platform === 'win32' ? ';' : ':'}${current}` : dir);
}
