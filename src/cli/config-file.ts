import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, formatProblem } from '../main/core/config/json-text';
import { loadConfigFile, type LoadedConfig } from '../main/core/config/load-config';
import { FileSettingsStore, MemorySettingsStore, type SettingsStore } from '../main/core/config/settings-store';
import { octalMode, othersMode } from '../main/core/config/atomic-write';
import { secretValues } from '../main/core/bridge-secrets';
import type { CliContext } from './command';

/** The config a command uses when none is named: this one, in the current folder. */
export const DEFAULT_CONFIG = 'xiaozhi-tray.json';

/**
 * What to type to get a config, said wherever one is missing. Never `echo '{}' > FILE` for a file
 * that is there (it would be emptied).
 */
export function howToCreate(file: string, exists = false): string {
  return [
    'Create one with:',
    `  xiaozhi-tray init --config ${file}`,
    ...(exists
      ? []
      : ['or start from an empty config (no endpoint, no servers) and add them in the web UI (run --ui):', `  echo '{}' > ${file}`]),
  ].join('\n');
}

/**
 * The config a command was given (`named`); without one, ./xiaozhi-tray.json when it is there,
 * said on stderr (stdout may be JSON).
 */
export function configFileOr(named: string | undefined, ctx: CliContext): string | undefined {
  if (named !== undefined) return named;
  if (!fs.existsSync(path.join(ctx.cwd, DEFAULT_CONFIG))) return undefined;
  ctx.err(`Using ${DEFAULT_CONFIG} in this folder (no --config given).`);
  return DEFAULT_CONFIG;
}

/** Loads the config a command was given, or explains on stderr what is wrong with it. */
export function loadOrExplain(
  ctx: CliContext,
  file: string | undefined,
  command: string,
  allowEnv: readonly string[] = [],
): LoadedConfig | undefined {
  if (!file) {
    ctx.err(
      `Missing --config FILE, and there is no ${DEFAULT_CONFIG} in this folder. Try: xiaozhi-tray ${command} --config ${DEFAULT_CONFIG}\n${howToCreate(DEFAULT_CONFIG, fs.existsSync(path.join(ctx.cwd, DEFAULT_CONFIG)))}`,
    );
    return undefined;
  }
  const resolved = path.resolve(ctx.cwd, file);
  if (!fs.existsSync(resolved)) {
    // A dangling link "does not exist" too, and must not be replaced by echo.
    ctx.err(`${file} does not exist. ${howToCreate(file, isLink(resolved))}`);
    return undefined;
  }
  if (fs.statSync(resolved).isDirectory()) {
    ctx.err(`${file} is a folder, not a config file. Name the file, e.g. --config ${path.join(file, DEFAULT_CONFIG)}`);
    return undefined;
  }
  try {
    return loadConfigFile(resolved, ctx.env, { allowEnv });
  } catch (error) {
    if (error instanceof ConfigError) {
      ctx.err(`${error.file}: the config is not valid:`);
      for (const problem of error.problems) ctx.err(`  - ${formatProblem(problem)}`);
    } else ctx.err(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Said when a save made the config 0600: it holds secrets others could read. */
export const madePrivate = (file: string, previousMode: number): string =>
  `${file} holds tokens or keys, and other users of this computer could ${previousMode & 0o022 ? 'change' : 'read'} it (mode ${octalMode(previousMode)}): it is now ${octalMode(0o600)}, for you only`;

/** Said at start when our config holds secrets others can read (a save would tighten it; this run may never save). */
export function readableByOthers(file: string, resolved: string, settings: LoadedConfig['settings']): string | undefined {
  const others = othersMode(resolved);
  if (others === 0 || secretValues(settings).length === 0) return undefined;
  return `${file} holds tokens or keys, and other users of this computer can ${others & 0o022 ? 'change' : 'read'} it (mode ${octalMode(fs.statSync(resolved).mode)}): make it yours only with: chmod 600 ${/\s/.test(file) ? `"${file}"` : file}`;
}

/**
 * Ours is written back when settings change; another program's file never is (changes stay in
 * memory). `say` gets what the user should know of a save (default: stderr).
 */
export function storeFor(
  file: string,
  loaded: LoadedConfig,
  say: (line: string) => void = (line) => process.stderr.write(`xiaozhi-tray: ${line}\n`),
): SettingsStore {
  if (loaded.format === 'xiaozhi-tray') {
    return new FileSettingsStore(file, loaded.settings, {
      onExternalChange: (backup) => say(`${file} was changed by another program while running; that version is kept in ${backup}`),
      onMadePrivate: (previous) => say(madePrivate(file, previous)),
      onSaveFailed: (error) => say(`could not save ${file}: ${error instanceof Error ? error.message : String(error)}`),
    });
  }
  return new MemorySettingsStore(loaded.settings, { file, format: loaded.format });
}
