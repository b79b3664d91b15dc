import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError, type OptionSpec } from '../../src/cli/args';
import { closest, editDistance } from '../../src/cli/suggest';

const specs: OptionSpec[] = [
  { name: 'config', value: 'FILE', help: '' },
  { name: 'json', help: '' },
  { name: 'input', value: 'ID=VALUE', repeatable: true, help: '' },
  { name: 'format', value: 'F', choices: ['a', 'b'], help: '' },
];

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
    expect(() => parseArgs(['--cofnig', 'x'], specs, 't')).toThrow(new UsageError('unknown option --cofnig. Did you mean --config?'));
    expect(() => parseArgs(['--config=a', '--config=b'], specs, 't')).toThrow('--config is given twice');
    expect(() => parseArgs(['--format', 'c'], specs, 't')).toThrow('--format must be a or b, not "c"');
    expect(() => parseArgs(['-c'], specs, 't')).toThrow('unknown option -c');
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
});
