/** A tiny, strict argument parser: `command --flag value --switch positional`. */
export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  options: Record<string, string | true>;
  /** Every `--input ID=VALUE` (repeatable). */
  inputs: Record<string, string>;
}

export function parseArgs(argv: string[], valued: ReadonlySet<string>): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  const inputs: Record<string, string> = {};
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (eq !== -1) options[name] = arg.slice(eq + 1);
      else if (valued.has(name)) {
        const value = argv[i + 1];
        if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
        options[name] = value;
        i++;
      } else options[name] = true;
      if (name === 'input' && typeof options.input === 'string') {
        const at = options.input.indexOf('=');
        if (at <= 0) throw new Error('--input takes ID=VALUE');
        inputs[options.input.slice(0, at)] = options.input.slice(at + 1);
      }
    } else if (arg === '-h') options.help = true;
    else if (command === undefined) command = arg;
    else positionals.push(arg);
  }
  return { command, positionals, options, inputs };
}
