import { parseArgs as nodeParseArgs } from 'node:util';

import { type MessageKey, type Translate, translate } from '../../../shared/i18n/translate';
import { type NameRecord, nameRecord } from '../../../shared/own';
import { closest } from '../../../shared/suggest';

/** One option a command accepts. `value` names its argument (`FILE`); without it, it is a switch. */
export interface OptionSpec {
  name: string;
  value?: string;
  /** What it does, as a key of the CLI's dictionaries (src/shared/i18n/cli-en.ts). */
  help: MessageKey;
  helpParams?: Record<string, string>;
  /** May be given more than once (`--input A=1 --input B=2`). */
  repeatable?: boolean;
  /** The values it accepts, checked at parse time. */
  choices?: readonly string[];
}

type Params = Record<string, string | number>;

/**
 * Wrong usage: the message says what was wrong; the process exits 2. Made with `of`, it carries its
 * words as a key and parameters, and is said in the reader's language (`message` stays English).
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly words?: { key: MessageKey; params: Params },
  ) {
    super(message);
  }

  static of(key: MessageKey, params: Params = {}): UsageError {
    return new UsageError(translate('en', key, params), { key, params });
  }

  /** The message in the reader's language. */
  say(t: Translate): string {
    return this.words ? t(this.words.key, this.words.params) : this.message;
  }
}

export interface ParsedArgs {
  positionals: string[];
  options: NameRecord<string | true>;
  /** Every value of a repeatable option, in order. */
  lists: NameRecord<string[]>;
}

/** Accepted by every command. */
export const COMMON_OPTIONS: OptionSpec[] = [
  { name: 'help', help: 'cli.opt.help' },
  { name: 'version', help: 'cli.opt.version' },
];

/** Short forms, for the common options only. */
const SHORT: ReadonlyMap<string, string> = new Map([
  ['help', 'h'],
  ['version', 'v'],
]);

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
        {
          type: spec.value ? ('string' as const) : ('boolean' as const),
          ...(SHORT.has(spec.name) ? { short: SHORT.get(spec.name) as string } : {}),
        },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals: string[] = [];
  // Keyed by option names as typed: records with no prototype (`--constructor` finds nothing inherited).
  const options = nameRecord<string | true>();
  const lists = nameRecord<string[]>();
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const { name, rawName } = token;
    const spec = known.get(name);
    // Short forms stand alone (`-h`, not `-hv`), and a mistake is said as typed: `-config` is one
    // (Node reads it as -c -o -n…).
    const typed = argv[token.index] as string;
    if (!spec || (!rawName.startsWith('--') && (!SHORT.has(name) || typed !== rawName)))
      throw unknownOption(typed.split('=')[0] as string, [...known.keys()], command);
    let value: string | true = true;
    if (spec.value) {
      // Node takes the next word whatever it is; `--config --json` forgot the value.
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--') && token.value.length > 2))
        throw UsageError.of('cli.usage.needsValue', { name, value: spec.value });
      value = token.value;
      if (spec.choices && !spec.choices.includes(value)) {
        throw badChoice(`--${name}`, value, spec.choices);
      }
    } else if (token.value !== undefined) throw UsageError.of('cli.usage.switch', { name });
    if (spec.repeatable && typeof value === 'string') (lists[name] ??= []).push(value);
    else if (options[name] !== undefined && spec.value) throw UsageError.of('cli.usage.twice', { name });
    options[name] = value;
  }
  return { positionals, options, lists };
}

/** `--flag` must be one of `choices`: said with the nearest one, when there is one. */
export function badChoice(flag: string, value: string, choices: readonly string[]): UsageError {
  const near = closest(value, choices);
  const params = { flag, value, choices: orList(choices), choiceList: choices.join('、') };
  return near ? UsageError.of('cli.usage.badChoiceNear', { ...params, near }) : UsageError.of('cli.usage.badChoice', params);
}

function unknownOption(option: string, names: string[], command: string): UsageError {
  const near = closest(option.replace(/^-+/, ''), names);
  return near
    ? UsageError.of('cli.usage.unknownOptionNear', { option, near })
    : UsageError.of('cli.usage.unknownOption', { option, command, options: names.map((n) => `--${n}`).join(', ') });
}

/** `a, b or c` (`a, b and c` with `and`) */
export function orList(values: readonly string[], word: 'or' | 'and' = 'or'): string {
  return values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} ${word} ${values[values.length - 1]}`;
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options[name];
  return typeof value === 'string' ? value : undefined;
}
