import { describe, expect, it } from 'vitest';

import { closest, editDistance } from '../../src/cli/suggest';
import { type OptionSpec, parseArgs, UsageError } from '../../src/main/core/command-line/args';

const specs: OptionSpec[] = [
  { name: 'config', value: 'FILE', help: 'cli.opt.json' },
  { name: 'json', help: 'cli.opt.json' },
  { name: 'input', value: 'ID=VALUE', repeatable: true, help: 'cli.opt.json' },
  { name: 'format', value: 'F', choices: ['a', 'b'], help: 'cli.opt.json' },
];

/** A usage error with this English message (it also carries its words, for the reader's language). */
const usage = (message: string) => expect.objectContaining({ name: 'Error', message, constructor: UsageError });

describe('the argument parser', () => {
  it('reads values, switches, repeatable options, positionals and everything after --', () => {
    expect(
      parseArgs(['x', '--config', 'f.json', '--json', '--input', 'a=1', '--input=b=2', '--format=b', '--', '--not-an-option'], specs, 't'),
    ).toEqual({
      positionals: ['x', '--not-an-option'],
      options: { config: 'f.json', json: true, input: 'b=2', format: 'b' },
      lists: { input: ['a=1', 'b=2'] },
    });
    expect(parseArgs(['-h', '-v'], specs, 't').options).toEqual({ help: true, version: true });
    // A value may start with a dash (a negative number, a single "-").
    expect(parseArgs(['--config', '-'], specs, 't').options.config).toBe('-');
  });

  it('refuses what it does not know, with the nearest name', () => {
    expect(() => parseArgs(['--cofnig', 'x'], specs, 't')).toThrow(usage('unknown option --cofnig. Did you mean --config?'));
    expect(() => parseArgs(['--config=a', '--config=b'], specs, 't')).toThrow('--config is given twice');
    expect(() => parseArgs(['--format', 'c'], specs, 't')).toThrow('--format must be a or b, not "c"');
    expect(() => parseArgs(['-c'], specs, 't')).toThrow('unknown option -c');
  });

  it("says the mistakes Node's parseArgs reads its own way as the help words them", () => {
    // Node reads -config as -c -o -n -f -i -g, and -hv as -h -v; both are one word the user typed.
    expect(() => parseArgs(['-config', 'x'], specs, 't')).toThrow(usage('unknown option -config. Did you mean --config?'));
    expect(() => parseArgs(['-hv'], specs, 't')).toThrow(
      usage('unknown option -hv for "t". Options: --config, --json, --input, --format, --help, --version'),
    );
    // Node takes the next word as the value, whatever it is.
    expect(() => parseArgs(['--config', '--json'], specs, 't')).toThrow(usage('--config needs a value: --config FILE'));
    expect(() => parseArgs(['--config'], specs, 't')).toThrow(usage('--config needs a value: --config FILE'));
    expect(() => parseArgs(['--json=yes'], specs, 't')).toThrow(usage('--json is a switch and takes no value'));
    expect(() => parseArgs(['-h=1'], specs, 't')).toThrow('unknown option -h for "t"');
    expect(parseArgs(['--config=', '--input=', '-'], specs, 't')).toEqual({
      positionals: ['-'],
      options: { config: '', input: '' },
      lists: { input: [''] },
    });
  });

  it('measures typos as people make them', () => {
    expect(editDistance('cofnig', 'config')).toBe(1);
    expect(editDistance('cnofig', 'config')).toBe(1);
    expect(editDistance('conifg', 'config')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('confgi', 'config')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closest('tols', ['tools', 'call', 'init'])).toBe('tools');
    expect(closest('serv', ['servers', 'service'])).toBe('servers');
    expect(closest('fly', ['tools', 'call', 'init'])).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', '--constructor', '--__proto__'])(
    'takes %s for what it is, never for a property every object has',
    (word) => {
      if (word.startsWith('--')) {
        expect(() => parseArgs([word], specs, 'call')).toThrow(UsageError);
        return;
      }
      const parsed = parseArgs([word, '--config', 'f.json'], specs, 'call');
      expect(parsed.positionals).toEqual([word]);
      expect(Object.keys(parsed.options)).toEqual(['config']);
    },
  );
});
