import path from 'node:path';

import { defaultCacheDir } from '../main/core/catalogue/catalogue-service';
import type { OptionSpec, ParsedArgs } from '../main/core/command-line/args';
import { COMMON_OPTIONS } from '../main/core/command-line/args';
import type { WatchdogCommand } from '../main/core/servers/server-watchdog';
import type { Language, MessageKey, Translate } from '../shared/i18n/translate';

/** What a command may use of the process it runs in; built once by the entry (index.ts). */
export interface ProcessContext {
  version: string;
  /** Writes a line to stdout. */
  out(text: string): void;
  /** Writes a line to stderr. */
  err(text: string): void;
  /** The streams under `out` and `err`, for what writes more than lines (logs, a page, a prompt). */
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  platform: NodeJS.Platform;
  home: string;
  stdin: NodeJS.ReadableStream;
  /** `node` itself, and the script that starts this CLI (what a service runs). */
  execPath: string;
  entryScript: string;
  /** How a bridge starts the watchdog that stops its servers if it is killed (none: not built). */
  watchdog?: WatchdogCommand;
}

/** What `main` adds from the locale (or `--lang`): the language every human-readable line is in. */
export interface CliContext extends ProcessContext {
  language: Language;
  t: Translate;
}

export interface Command {
  name: string;
  /** One line in the general help (a key of the CLI's dictionaries, as `details` and each option's `help`). */
  summary: MessageKey;
  /** The usage lines, without the program name; one may say what it is for (`note`, a key of the dictionaries). */
  usage: (string | { line: string; note: MessageKey })[];
  /** Paragraphs after the options in the command's own help. */
  details?: MessageKey;
  options: OptionSpec[];
  run(args: ParsedArgs, ctx: CliContext): Promise<number>;
}

export const CONFIG_OPTION: OptionSpec = {
  name: 'config',
  value: 'FILE',
  help: 'cli.opt.config',
};
export const ALLOW_ENV_OPTION: OptionSpec = {
  name: 'allow-env',
  value: 'NAME',
  repeatable: true,
  help: 'cli.opt.allow-env',
};
/** The `--allow-env` names given. */
export const allowEnvArg = (args: ParsedArgs): string[] => args.lists['allow-env'] ?? [];
export const JSON_OPTION: OptionSpec = { name: 'json', help: 'cli.opt.json' };
export const FETCH_RUNTIMES_OPTION: OptionSpec = { name: 'fetch-runtimes', help: 'cli.opt.fetch-runtimes' };

/** Where `--fetch-runtimes` keeps the runtimes it fetches (the cache folder's runtimes/), or undefined without it. */
export function runtimesDirArg(args: ParsedArgs, ctx: CliContext): string | undefined {
  return args.options['fetch-runtimes'] === true ? runtimesFolder(ctx) : undefined;
}

/** The cache folder's runtimes/: where `--fetch-runtimes`, and the web page's Download uv, keep what they fetch. */
export function runtimesFolder(ctx: CliContext): string {
  return path.join(defaultCacheDir(ctx.env, ctx.platform, ctx.home), 'runtimes');
}

export const TOOL_MODE_OPTION: OptionSpec = {
  name: 'tool-mode',
  value: 'MODE',
  choices: ['auto', 'all', 'router'],
  help: 'cli.opt.tool-mode',
};
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LOG_FORMATS = ['text', 'json'] as const;
export const logOptions = (defaultLevel: string, where: string): OptionSpec[] => [
  {
    name: 'log-level',
    value: 'LEVEL',
    choices: LOG_LEVELS,
    help: 'cli.opt.log-level',
    helpParams: { where, level: defaultLevel },
  },
  {
    name: 'log-format',
    value: 'FORMAT',
    choices: LOG_FORMATS,
    help: 'cli.opt.log-format',
  },
];

export function commandHelp(command: Command, t: Translate, version: string): string {
  const options = [...command.options, ...COMMON_OPTIONS];
  const labels = options.map((o) => `--${o.name}${o.value ? ` ${o.value}` : ''}`);
  const width = Math.max(...labels.map((l) => l.length)) + 2;
  const lines = [
    `xiaozhi-tray ${version} — ${command.name}: ${t(command.summary)}`,
    '',
    t('cli.help.usage'),
    ...command.usage.map((u) => (typeof u === 'string' ? `  xiaozhi-tray ${u}` : `  xiaozhi-tray ${u.line}   ${t(u.note)}`)),
    '',
    t('cli.help.options'),
    ...options.map(
      (o, i) => `  ${(labels[i] as string).padEnd(width)}${t(o.help, o.helpParams)}${o.repeatable ? t('cli.help.repeatable') : ''}`,
    ),
  ];
  if (command.details) lines.push('', t(command.details));
  lines.push('', t('cli.help.lang'));
  return lines.join('\n');
}

/** The config file of a command: `--config FILE`, or the first positional. */
export function configArg(args: ParsedArgs): string | undefined {
  const option = args.options.config;
  return typeof option === 'string' ? option : args.positionals[0];
}
