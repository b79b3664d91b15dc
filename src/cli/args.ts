import { parseArgs as nodeParseArgs } from 'node:util';
import { closest } from './suggest';

/** One option a command accepts. `value` names its argument (`FILE`); without it, it is a switch. */
export interface OptionSpec {
  name: string;
  value?: string;
  help: string;
  /** May be given more than once (`--input A=1 --input B=2`). */
  repeatable?: boolean;
  /** The values it accepts, checked at parse time. */
  choices?: readonly string[];
}

/** Wrong usage: the message says what was wrong; the process exits 2. */
export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | true>;
  /** Every value of a repeatable option, in order. */
  lists: Record<string, string[]>;
}

/** Accepted by every command. */
export const COMMON_OPTIONS: OptionSpec[] = [
  { name: 'help', help: 'show the help of this command (also -h)' },
  { name: 'version', help: 'print the version (also -v)' },
];

/** Short forms, for the common options only. */
const SHORT: Record<string, string> = { help: 'h', version: 'v' };

/**
 * Node's `parseArgs` splits the command line (`--name value`, `--name=value`, `-h`, positionals,
 * `--` ends options); what it does not do is kept here: the nearest name for a typo, choices, a value
 * that is another option, an option given twice, in the words the help uses. It runs non-strict so
 * that every mistake reaches these checks as a token, never as Node's own message.
 */
export function parseArgs(argv: string[], specs: OptionSpec[], command: string): ParsedArgs {
  const known = new Map([...specs, ...COMMON_OPTIONS].map((spec) => [spec.name, spec]));
  const { tokens } = nodeParseArgs({
    args: argv,
    options: Object.fromEntries(
      [...known.values()].map((spec) => [
        spec.name,
        { type: spec.value ? ('string' as const) : ('boolean' as const), ...(SHORT[spec.name] ? { short: SHORT[spec.name] } : {}) },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  const lists: Record<string, string[]> = {};
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const { name, rawName } = token;
    const spec = known.get(name);
    // Short forms stand alone (`-h`, not `-hv`), and a mistake is said as typed: `-config` is one
    // (Node reads it as -c -o -n…).
    const typed = argv[token.index] as string;
    if (!spec || (!rawName.startsWith('--') && (SHORT[name] === undefined || typed !== rawName)))
      throw new UsageError(unknownOption(typed.split('=')[0] as string, [...known.keys()], command));
    let value: string | true = true;
    if (spec.value) {
      // Node takes the next word whatever it is; `--config --json` forgot the value.
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--') && token.value.length > 2))
        throw new UsageError(`--${name} needs a value: --${name} ${spec.value}`);
      value = token.value;
      if (spec.choices && !spec.choices.includes(value)) {
        throw new UsageError(`--${name} must be ${orList(spec.choices)}, not "${value}"${suggestion(value, spec.choices, '')}`);
      }
    } else if (token.value !== undefined) throw new UsageError(`--${name} is a switch and takes no value`);
    if (spec.repeatable && typeof value === 'string') (lists[name] ??= []).push(value);
    else if (options[name] !== undefined && spec.value) throw new UsageError(`--${name} is given twice`);
    options[name] = value;
  }
  return { positionals, options, lists };
}

function suggestion(word: string, candidates: readonly string[], prefix: string): string {
  const near = closest(word, candidates);
  return near ? `. Did you mean ${prefix}${near}?` : '';
}

function unknownOption(arg: string, names: string[], command: string): string {
  const bare = arg.replace(/^-+/, '');
  const near = closest(bare, names);
  return near
    ? `unknown option ${arg}. Did you mean --${near}?`
    : `unknown option ${arg} for "${command}". Options: ${names.map((n) => `--${n}`).join(', ')}`;
}

/** `a, b or c` */
export function orList(values: readonly string[]): string {
  return values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options[name];
  return typeof value === 'string' ? value : undefined;
}
