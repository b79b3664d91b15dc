import { UsageError, type OptionSpec, type ParsedArgs } from './args';

export const INPUT_OPTION: OptionSpec = {
  name: 'input',
  value: 'ID=VALUE',
  repeatable: true,
  help: 'a value the file asks for: input:ID=…, env:NAME=… or workspaceFolder=DIR',
};
export const USE_ENV_OPTION: OptionSpec = {
  name: 'use-env',
  value: 'NAME',
  repeatable: true,
  help: "fill the file's ${env:NAME} with NAME from this shell (the preview shows it masked, and where it goes)",
};

export const CODE_ENV_OPTION: OptionSpec = {
  name: 'allow-code-env',
  help: 'with --yes: import servers that set NODE_OPTIONS, LD_PRELOAD, PYTHONPATH… (they can run other code before the server starts)',
};

/** Every `--input ID=VALUE`, by id. */
export function inputValues(args: ParsedArgs): Record<string, string> {
  const values: Record<string, string> = {};
  for (const item of args.lists.input ?? []) {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`--input takes ID=VALUE, not "${item}"`);
    values[item.slice(0, at)] = item.slice(at + 1);
  }
  return values;
}

/** Every `--use-env NAME`, as the input id it confirms (`env:NAME`). */
export function useEnvIds(args: ParsedArgs): string[] {
  return (args.lists['use-env'] ?? []).map((name) => {
    const bare = name.replace(/^env:/, '');
    if (!/^[^=\s]+$/.test(bare)) throw new UsageError(`--use-env takes the name of an environment variable, not "${name}"`);
    return `env:${bare}`;
  });
}
