import fs from 'node:fs';
import path from 'node:path';

import { ConfigError, type ConfigProblem } from '../main/core/config/json-text';
import { loadConfigFile, type LoadedConfig } from '../main/core/config/load-config';
import { FileSettingsStore, MemorySettingsStore, type SettingsStore } from '../main/core/config/settings-store';
import { holdsSecrets } from '../main/core/secrets/bridge-secrets';
import { octalMode, othersMode } from '../main/core/system/atomic-write';
import { hasMessage, type Translate, translator } from '../shared/i18n/translate';
import { type Problem, problem } from '../shared/problem';
import { problemMessage } from '../shared/problem-words';
import { issueWords } from '../shared/zod-issue';
import type { CliContext } from './command';

/** The config a command uses when none is named: this one, in the current folder. */
export const DEFAULT_CONFIG = 'xiaozhi-tray.json';

/**
 * What to type to get a config, said wherever one is missing. Never `echo '{}' > FILE` for a file
 * that is there (it would be emptied).
 */
export function howToCreate(t: Translate, file: string, exists = false): string {
  return [
    t('cli.config.createWith'),
    `  xiaozhi-tray init --config ${file}`,
    ...(exists ? [] : [t('cli.config.orEmpty'), `  echo '{}' > ${file}`]),
  ].join('\n');
}

/** A config problem where it stands (line, column, JSON path), in the reader's language; the problem itself as the loader said it. */
export function configProblemText(t: Translate, problem: ConfigProblem): string {
  const where =
    problem.line !== undefined
      ? t(problem.path ? 'cli.config.lineAt' : 'cli.config.line', { line: problem.line, column: problem.column ?? 1, path: problem.path })
      : problem.path;
  const message = problemWords(t, problem) ?? problem.message;
  return where ? t('cli.config.problemAt', { where, message }) : message;
}

/** A JSON syntax error, an empty file or a value the schema refused, in the reader's words; other problems keep the loader's. */
function problemWords(t: Translate, problem: ConfigProblem): string | undefined {
  if (problem.problem?.code === 'config.empty') return t('cli.config.empty');
  const invalid = issueWords(t, problem.problem);
  if (invalid !== undefined) return invalid;
  const code = problem.problem?.code;
  if (
    code === 'config.unknownKey' ||
    code === 'config.unknownKeyNear' ||
    code === 'config.noCommandOrUrl' ||
    code === 'config.newerVersion'
  )
    return t(`problem.${code}`, problem.problem?.params);
  // The CLI's own warnings (a runtime missing here) have words of their own, with the advice a reader there can follow.
  if (code?.startsWith('cli.')) return problemMessage(t, problem.problem, undefined)?.message;
  const error = `cli.json.${String(problem.problem?.params.error)}`;
  if (problem.problem?.code !== 'config.invalidJson' || !hasMessage(error)) return undefined;
  return t('cli.config.invalidJson', { what: t(error) });
}

/**
 * The config a command was given (`named`); without one, ./xiaozhi-tray.json when it is there,
 * said on stderr (stdout may be JSON).
 */
export function configFileOr(named: string | undefined, ctx: CliContext): string | undefined {
  if (named !== undefined) return named;
  if (!fs.existsSync(path.join(ctx.cwd, DEFAULT_CONFIG))) return undefined;
  ctx.err(ctx.t('cli.config.usingDefault', { file: DEFAULT_CONFIG }));
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
      `${ctx.t('cli.config.missingOption', { file: DEFAULT_CONFIG, command })}\n${howToCreate(ctx.t, DEFAULT_CONFIG, fs.existsSync(path.join(ctx.cwd, DEFAULT_CONFIG)))}`,
    );
    return undefined;
  }
  const resolved = path.resolve(ctx.cwd, file);
  if (!fs.existsSync(resolved)) {
    // A dangling link "does not exist" too, and must not be replaced by echo.
    ctx.err(`${ctx.t('cli.config.notFound', { file, path: resolved })} ${howToCreate(ctx.t, file, isLink(resolved))}`);
    return undefined;
  }
  if (fs.statSync(resolved).isDirectory()) {
    ctx.err(ctx.t('cli.config.isFolder', { file, example: path.join(file, DEFAULT_CONFIG) }));
    return undefined;
  }
  try {
    return loadConfigFile(resolved, ctx.env, { allowEnv });
  } catch (error) {
    if (error instanceof ConfigError) {
      ctx.err(ctx.t('cli.config.invalid', { file: error.file }));
      for (const problem of error.problems) ctx.err(`  - ${configProblemText(ctx.t, problem)}`);
      ctx.err(ctx.t('cli.config.invalidAction', { file: error.file }));
    } else ctx.err(ctx.t('cli.config.unreadable', { file, error: error instanceof Error ? error.message : String(error) }));
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
export const madePrivate = (file: string, previousMode: number, t: Translate = translator('en')): string =>
  t(previousMode & 0o022 ? 'cli.config.madePrivateChange' : 'cli.config.madePrivateRead', {
    file,
    was: octalMode(previousMode),
    now: octalMode(0o600),
  });

/** Said at start when our config holds secrets others can read (a save would tighten it; this run may never save). */
export function readableByOthers(file: string, resolved: string, settings: LoadedConfig['settings']): Problem | undefined {
  const others = othersMode(resolved);
  if (others === 0 || !holdsSecrets(settings)) return undefined;
  return problem('cli.readableByOthers', {
    reason: others & 0o022 ? 'change' : 'read',
    file,
    mode: octalMode(fs.statSync(resolved).mode),
    quoted: /\s/.test(file) ? `"${file}"` : file,
  });
}

/** The same, coded: the log page words it in the reader's language. */
const madePrivateProblem = (file: string, previousMode: number): Problem =>
  problem('cli.madePrivate', {
    reason: previousMode & 0o022 ? 'change' : 'read',
    file,
    was: octalMode(previousMode),
    now: octalMode(0o600),
  });

/**
 * Ours is written back when settings change; another program's file never is (changes stay in
 * memory). `say` gets what the user should know of a save (default: stderr), in English with its code.
 */
export function storeFor(
  file: string,
  loaded: LoadedConfig,
  say: (line: string, said?: Problem) => void = (line) => process.stderr.write(`xiaozhi-tray: ${line}\n`),
): SettingsStore {
  if (loaded.format === 'xiaozhi-tray') {
    return new FileSettingsStore(file, loaded.settings, {
      onExternalChange: (backup) =>
        say(
          `${file} was changed by another program while running; that version is kept in ${backup}`,
          problem('cli.changedElsewhere', { file, backup }),
        ),
      onMadePrivate: (previous) => say(madePrivate(file, previous), madePrivateProblem(file, previous)),
      onSaveFailed: (error) => {
        const detail = error instanceof Error ? error.message : String(error);
        say(`could not save ${file}: ${detail}`, problem('cli.saveFailed', { file, detail }));
      },
    });
  }
  return new MemorySettingsStore(loaded.settings, { file, format: loaded.format });
}
