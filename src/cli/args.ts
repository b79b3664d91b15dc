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

const SHORT: Record<string, string> = { '-h': 'help', '-v': 'version' };

/** A small, strict parser: `--name value`, `--name=value`, switches, positionals, `--` ends options. */
export function parseArgs(argv: string[], specs: OptionSpec[], command: string): ParsedArgs {
  const known = new Map([...specs, ...COMMON_OPTIONS].map((spec) => [spec.name, spec]));
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  const lists: Record<string, string[]> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (SHORT[arg]) {
      options[SHORT[arg]] = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? arg.slice(2, eq === -1 ? undefined : eq) : arg.slice(1);
    const spec = known.get(name);
    if (!spec || !arg.startsWith('--')) throw new UsageError(unknownOption(arg.split('=')[0] as string, [...known.keys()], command));
    let value: string | true = true;
    if (spec.value) {
      if (eq !== -1) value = arg.slice(eq + 1);
      else {
        const next = argv[i + 1];
        if (next === undefined || (next.startsWith('--') && next.length > 2))
          throw new UsageError(`--${name} needs a value: --${name} ${spec.value}`);
        value = next;
        i++;
      }
      if (spec.choices && !spec.choices.includes(value)) {
        throw new UsageError(`--${name} must be ${orList(spec.choices)}, not "${value}"${suggestion(value, spec.choices, '')}`);
      }
    } else if (eq !== -1) throw new UsageError(`--${name} is a switch and takes no value`);
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
