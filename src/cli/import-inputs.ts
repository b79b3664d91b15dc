import { UsageError, type OptionSpec, type ParsedArgs } from './args';

export const INPUT_OPTION: OptionSpec = { name: 'input', value: 'ID=VALUE', repeatable: true, help: 'a value the file asks for: input:ID=…, env:NAME=… or workspaceFolder=DIR' };

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
