import { parseArgs, UsageError } from '../main/core/command-line/args';
import { type MessageKey, type Translate, translator } from '../shared/i18n/translate';
import { localeLanguage, takeLanguageFlag } from './cli-language';
import { type CliContext, type Command, commandHelp, type ProcessContext } from './command';
import { askCommand } from './commands/ask';
import { callCommand } from './commands/call';
import { checkCommand } from './commands/check';
import { connectCommand } from './commands/connect';
import { exportCommand } from './commands/export';
import { importCommand } from './commands/import';
import { initCommand } from './commands/init';
import { loginCommand } from './commands/login';
import { runCommand } from './commands/run';
import { serversCommand } from './commands/servers';
import { serviceCommand } from './commands/service';
import { statsCommand } from './commands/stats';
import { toolsCommand } from './commands/tools';
import { closest } from './suggest';

const GROUPS: [MessageKey, Command[]][] = [
  ['cli.group.start', [initCommand, runCommand]],
  ['cli.group.look', [checkCommand, toolsCommand, serversCommand, callCommand, askCommand]],
  ['cli.group.signIn', [loginCommand]],
  ['cli.group.stats', [statsCommand]],
  ['cli.group.move', [importCommand, exportCommand]],
  ['cli.group.clients', [connectCommand]],
  ['cli.group.service', [serviceCommand]],
];
const COMMANDS = new Map(GROUPS.flatMap(([, commands]) => commands.map((c) => [c.name, c] as const)));

export function generalHelp(t: Translate, version: string): string {
  const lines = [t('cli.help.title', { version }), '', t('cli.help.usageLine')];
  for (const [title, commands] of GROUPS) {
    lines.push('', t(title));
    for (const command of commands) lines.push(`  ${command.name.padEnd(9)}${t(command.summary)}`);
  }
  lines.push('', t('cli.help.more'), '', t('cli.help.files'), '', t('cli.help.lang'));
  return lines.join('\n');
}

function unknownCommand(name: string): UsageError {
  const near = closest(name, [...COMMANDS.keys(), 'help']);
  return near ? UsageError.of('cli.usage.unknownCommandNear', { name, near }) : UsageError.of('cli.usage.unknownCommand', { name });
}

/** Runs one command line; resolves with the exit code (2: wrong usage). Speaks the locale's language, or `--lang`'s. */
export async function main(line: string[], proc: ProcessContext): Promise<number> {
  let ctx: CliContext = { ...proc, language: localeLanguage(proc.env), t: translator(localeLanguage(proc.env)) };
  try {
    const { argv, language } = takeLanguageFlag(line);
    if (language) ctx = { ...ctx, language, t: translator(language) };
    return await dispatch(argv, ctx);
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.err(`xiaozhi-tray: ${error.say(ctx.t)}`);
      return 2;
    }
    throw error;
  }
}

async function dispatch(argv: string[], ctx: CliContext): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h') {
    (first ? ctx.out : ctx.err)(generalHelp(ctx.t, ctx.version));
    return first ? 0 : 2;
  }
  if (first === '--version' || first === '-v') {
    ctx.out(ctx.version);
    return 0;
  }
  if (first === 'help') {
    const about = rest[0];
    if (about === undefined) ctx.out(generalHelp(ctx.t, ctx.version));
    else {
      const command = COMMANDS.get(about);
      if (!command) throw unknownCommand(about);
      ctx.out(commandHelp(command, ctx.t, ctx.version));
    }
    return 0;
  }
  if (first.startsWith('-')) throw UsageError.of('cli.usage.optionFirst', { option: first });
  const command = COMMANDS.get(first);
  if (!command) throw unknownCommand(first);
  const args = parseArgs(rest, command.options, command.name);
  if (args.options.help === true) {
    ctx.out(commandHelp(command, ctx.t, ctx.version));
    return 0;
  }
  if (args.options.version === true) {
    ctx.out(ctx.version);
    return 0;
  }
  return await command.run(args, ctx);
}
