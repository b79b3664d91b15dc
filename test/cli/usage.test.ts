import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { version } from '../../package.json';
import { CliHarness, fixtureEntry, waitForText } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

const COMMANDS = ['init', 'run', 'check', 'tools', 'servers', 'call', 'import', 'export', 'connect', 'service'];

const finished = h.finished.bind(h);
/** Help, versions and usage errors: the CLI's main() in this process (the first test checks the real process). */
const answered = h.answered.bind(h);

describe('CLI usage: help, version, and mistakes', () => {
  it('prints the version for --version and -v, alone and after every command', async () => {
    expect(await finished(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' });
    expect(await finished(['help', 'run'])).toEqual(await answered(['help', 'run']));
    expect(await finished([])).toEqual(await answered([]));
    const runs = await Promise.all(
      [['--version'], ['-v'], ...COMMANDS.map((c) => [c, '--version']), ['run', '-v']].map((a) => answered(a)),
    );
    for (const run of runs) expect(run).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });

  it('has help for every command: help COMMAND, COMMAND --help and COMMAND -h say the same', async () => {
    await Promise.all(
      COMMANDS.map(async (command) => {
        const [viaHelp, viaFlag, viaShort] = await Promise.all([
          answered(['help', command]),
          answered([command, '--help']),
          answered([command, '-h']),
        ]);
        expect(viaHelp.code, command).toBe(0);
        expect(viaHelp.out).toContain(`Usage:\n  xiaozhi-tray ${command}`);
        expect(viaHelp.out).toContain('--help');
        expect(viaFlag.out).toBe(viaHelp.out);
        expect(viaShort.out).toBe(viaHelp.out);
      }),
    );
    const general = await answered(['help']);
    for (const command of COMMANDS) expect(general.out).toMatch(new RegExp(`\\n  ${command} +\\S`));
    expect((await answered(['-h'])).out).toBe(general.out);
    const bare = await answered([]);
    expect(bare.code).toBe(2);
    expect(bare.err).toBe(general.out);
  });

  it('refuses unknown options and commands, naming the closest one', async () => {
    const file = h.writeConfig({});
    const typo = await answered(['run', '--cofnig', file]);
    expect(typo.code).toBe(2);
    expect(typo.err).toBe('xiaozhi-tray: unknown option --cofnig. Did you mean --config?\n');
    expect((await answered(['tools', '--config', file, '--jsn'])).err).toContain('unknown option --jsn. Did you mean --json?');
    const far = await answered(['check', '--colour']);
    expect(far.code).toBe(2);
    expect(far.err).toContain('unknown option --colour for "check". Options: --config, --allow-env, --help, --version\n');
    expect((await answered(['check', '-x'])).err).toContain('unknown option -x');
    expect((await answered(['tols'])).err).toContain('Unknown command "tols". Did you mean "tools"?');
    const unknown = await answered(['fly']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('xiaozhi-tray: Unknown command "fly". Run "xiaozhi-tray help" for the list.\n');
    expect((await answered(['help', 'srevers'])).err).toContain('Did you mean "servers"?');
  });

  it('checks option values: export --format yaml is an error, not a silent fallback', async () => {
    const file = h.writeConfig({ mcpServers: { fx: fixtureEntry() } });
    const yaml = await answered(['export', '--config', file, '--format', 'yaml']);
    expect(yaml).toMatchObject({ code: 2, out: '' });
    expect(yaml.err).toBe(
      'xiaozhi-tray: --format must be mcp-servers, xiaozhi-client, cursor, claude-desktop, vscode or cherry-studio, not "yaml"\n',
    );
    // Before: the local server's flags were ignored without a word when the format is not a client entry.
    const ignored = await finished(['export', '--config', file, '--mcp-port', '18791']);
    expect(ignored).toMatchObject({ code: 2, out: '' });
    expect(ignored.err).toContain('--mcp-port is for a client entry: add --format cursor, claude-desktop, vscode or cherry-studio');
    const client = await finished(['export', '--config', file, '--format=xiaozhi-client']);
    expect(client.code).toBe(0);
    expect(JSON.parse(client.out)).toHaveProperty('mcpServers.fx.command', process.execPath);
    expect((await answered(['run', '--config', file, '--log-level', 'loud'])).err).toContain(
      '--log-level must be debug, info, warn or error, not "loud"',
    );
    expect((await answered(['run', '--config', file, '--log-format', 'xml'])).err).toContain(
      '--log-format must be text or json, not "xml"',
    );
    expect((await answered(['run', '--config', file, '--port', 'abc'])).err).toContain('--port must be a port number (0-65535), not "abc"');
    expect((await answered(['run', '--config'])).err).toContain('--config needs a value: --config FILE');
    expect((await answered(['tools', '--json=yes', '--config', file])).err).toContain('--json is a switch and takes no value');
  });

  it('run on a missing file says how to create one; {} is a valid empty config', async () => {
    const dir = h.tempDir();
    const missing = await finished(['run', '--config', 'new.json'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('new.json does not exist. Create one with:\n  xiaozhi-tray init --config new.json');
    expect(missing.err).toContain(`echo '{}' > new.json`);
    expect(fs.existsSync(path.join(dir, 'new.json'))).toBe(false);
    expect((await finished(['run'])).err).toContain('Missing --config FILE');

    const empty = h.writeConfig('{}\n', 'empty.json', dir);
    const check = await finished(['check', '--config', empty]);
    expect(check).toMatchObject({ code: 0, err: '' });
    expect(check.out).toContain('valid xiaozhi-tray config: 0 endpoints, 0 servers');
    const run = h.spawn(['run', '--config', empty]);
    await waitForText(run.stdout, 'no endpoint configured');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(fs.readFileSync(empty, 'utf8')).toBe('{}\n');
  });
});

describe('without --config', () => {
  it('run, tools and check use ./xiaozhi-tray.json when it is there, and say so', async () => {
    const dir = h.tempDir();
    h.writeConfig({ servers: [{ name: 'fx', transport: 'stdio', ...fixtureEntry() }] }, 'xiaozhi-tray.json', dir);
    const check = await finished(['check'], { cwd: dir });
    expect(check.code, check.err).toBe(0);
    expect(check.err).toBe('Using xiaozhi-tray.json in this folder (no --config given).\n');
    expect(check.out).toContain('xiaozhi-tray.json: valid xiaozhi-tray config: 0 endpoints, 1 server');
    const tools = await finished(['tools', '--json'], { cwd: dir });
    expect(tools.code, tools.err).toBe(0);
    expect(tools.err).toContain('Using xiaozhi-tray.json in this folder');
    expect(JSON.stringify(JSON.parse(tools.out))).toContain('"echo"');
    const run = h.spawn(['run'], { cwd: dir });
    await waitForText(run.stdout, 'config xiaozhi-tray.json (xiaozhi-tray)');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stderr()).toContain('Using xiaozhi-tray.json in this folder');
  });

  it("never suggests echo '{}' > FILE for a file that is there", async () => {
    const dir = h.tempDir();
    // A dangling link "does not exist", but echo would write through it.
    fs.symlinkSync(path.join(dir, 'elsewhere', 'mine.json'), path.join(dir, 'mine.json'));
    const dangling = await finished(['run', '--config', 'mine.json'], { cwd: dir });
    expect(dangling.code).toBe(1);
    expect(dangling.err).toContain('mine.json does not exist. Create one with:\n  xiaozhi-tray init --config mine.json');
    expect(dangling.err).not.toContain('echo');
    const none = await finished(['check'], { cwd: dir });
    expect(none.err).toContain('Missing --config FILE, and there is no xiaozhi-tray.json in this folder.');
    fs.mkdirSync(path.join(dir, 'configs'));
    const folder = await finished(['check', '--config', 'configs'], { cwd: dir });
    expect(folder.err).toBe(
      `configs is a folder, not a config file. Name the file, e.g. --config ${path.join('configs', 'xiaozhi-tray.json')}\n`,
    );
  });
});

describe('the README', () => {
  it('shows a config example that check accepts as it is', async () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### The config file'));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1] as string;
    const run = await finished(['check', '--config', h.writeConfig(example)]);
    expect(run.err).toBe('');
    expect(run.out).toContain('valid xiaozhi-tray config: 1 endpoint, 3 servers');
  });
});
