import { type OptionSpec, type ParsedArgs, UsageError } from '../main/core/command-line/args';
import { onCommandLine } from '../main/core/command-line/secret-input';
import { type NameRecord, nameRecord } from '../shared/own';

export const INPUT_OPTION: OptionSpec = {
  name: 'input',
  value: 'ID=VALUE',
  repeatable: true,
  help: 'cli.opt.input',
};
export const USE_ENV_OPTION: OptionSpec = {
  name: 'use-env',
  value: 'NAME',
  repeatable: true,
  help: 'cli.opt.use-env',
};

export const CODE_ENV_OPTION: OptionSpec = {
  name: 'allow-code-env',
  help: 'cli.opt.allow-code-env',
};

/**
 * Every `--input ID=VALUE`, by id. A value for `env:` or `input:` is usually a key or a token: on the
 * command line others see it, so each is warned about, with the ways that keep it off argv.
 */
export function inputValues(args: ParsedArgs, warn: (line: string) => void): NameRecord<string> {
  // Keyed by ids the user typed: no prototype.
  const values = nameRecord<string>();
  for (const item of args.lists.input ?? []) {
    const at = item.indexOf('=');
    if (at <= 0) throw UsageError.of('cli.input.bad', { item });
    const id = item.slice(0, at);
    values[id] = item.slice(at + 1);
    if (id === 'workspaceFolder' || values[id] === '') continue;
    const instead = id.startsWith('env:')
      ? `--use-env ${id.slice(4)} (set it in this shell first) instead, or answer init's question (read without echo)`
      : "init's question (read without echo) instead";
    warn(onCommandLine(`--input ${id}=…`, instead));
  }
  return values;
}

/** Every `--use-env NAME`, as the input id it confirms (`env:NAME`). */
export function useEnvIds(args: ParsedArgs): string[] {
  return (args.lists['use-env'] ?? []).map((name) => {
    const bare = name.replace(/^env:/, '');
    if (!/^[^=\s]+$/.test(bare)) throw UsageError.of('cli.useEnv.bad', { name });
    return `env:${bare}`;
  });
}
