import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, formatProblem } from '../main/core/config/json-text';
import { loadConfigFile, type LoadedConfig } from '../main/core/config/load-config';
import { FileSettingsStore, MemorySettingsStore, type SettingsStore } from '../main/core/config/settings-store';
import type { CliContext } from './command';

/** What to type to get a config, said wherever one is missing. */
export function howToCreate(file: string): string {
  return [
    'Create one with:',
    `  xiaozhi-tray init --config ${file}`,
    'or start from an empty config (no endpoint, no servers) and add them in the web UI (run --ui):',
    `  echo '{}' > ${file}`,
  ].join('\n');
}

/** Loads the config a command was given, or explains on stderr what is wrong with it. */
export function loadOrExplain(ctx: CliContext, file: string | undefined, command: string): LoadedConfig | undefined {
  if (!file) {
    ctx.err(`Missing --config FILE. Try: xiaozhi-tray ${command} --config xiaozhi-tray.json\n${howToCreate('xiaozhi-tray.json')}`);
    return undefined;
  }
  const resolved = path.resolve(ctx.cwd, file);
  if (!fs.existsSync(resolved)) {
    ctx.err(`${file} does not exist. ${howToCreate(file)}`);
    return undefined;
  }
  try {
    return loadConfigFile(resolved, ctx.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      ctx.err(`${error.file}: the config is not valid:`);
      for (const problem of error.problems) ctx.err(`  - ${formatProblem(problem)}`);
    } else ctx.err(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Ours is written back when settings change; another program's file never is (changes stay in memory). */
export function storeFor(file: string, loaded: LoadedConfig): SettingsStore {
  if (loaded.format === 'xiaozhi-tray') {
    return new FileSettingsStore(file, loaded.settings, {
      onExternalChange: (backup) => process.stderr.write(`xiaozhi-tray: ${file} was changed by another program while running; that version is kept in ${backup}\n`),
    });
  }
  return new MemorySettingsStore(loaded.settings, { file, format: loaded.format });
}
