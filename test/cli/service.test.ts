import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { launchdPlist, systemdUnit, systemdWord } from '../../src/cli/service/unit-files';
import { BIN, CliHarness, fixtureEntry } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

/**
 * `service …` read as a finished process is. Through the CLI's main() in this process (the unit file
 * and the words are the same), but as a process when the case gives a PATH: systemctl is looked up
 * on the PATH of the process that runs it.
 */
async function service(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  const run = options.env?.PATH === undefined ? await h.answered(args, options) : await h.finished(args, options);
  return { code: run.code, exit: Promise.resolve(run.code), stdout: () => run.out, stderr: () => run.err };
}

/** The words of an ExecStart that runs this CLI's `run` with `args` on this node. */
const runsCli = (...args: string[]) => [process.execPath, fs.realpathSync(BIN), 'run', ...args];

/** Splits a systemd command line the way systemd does: double quotes, backslash escapes, `%%` and `$$`. */
function systemdWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const m of line.matchAll(pattern)) {
    const raw = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] as string);
    words.push(raw.replace(/%%/g, '%').replace(/\$\$/g, '$'));
  }
  return words;
}

function unitKeys(text: string): Record<string, string> {
  const keys: Record<string, string> = {};
  let section = '';
  for (const line of text.split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) section = header[1] as string;
    const pair = /^(\w+)=(.*)$/.exec(line);
    if (pair) keys[`${section}.${pair[1]}`] = pair[2] as string;
  }
  return keys;
}

/** A folder whose `systemctl` runs `script` (sh), for what this machine's systemd cannot show. */
function fakeSystemctl(script: string): string {
  const dir = h.tempDir();
  fs.writeFileSync(path.join(dir, 'systemctl'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return dir;
}

const BUS_ERROR = 'echo "Failed to connect to bus: No medium found" >&2; exit 1';

function linuxEnv() {
  const home = h.tempDir();
  // A plain shell, even when the tests run under `npm test` (npm's variables say it is npm's shell).
  const plainShell = { npm_command: '', npm_execpath: '', npm_lifecycle_event: '' };
  return { home, configHome: path.join(home, 'cfg'), env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'cfg'), ...plainShell } };
}

describe('service on Linux: a systemd user unit', () => {
  it('install passes --allow-env on to run, and refuses a file whose ${env:…} would leave the machine without it', async () => {
    const { configHome, env } = linuxEnv();
    const config = h.writeConfig(
      { mcpServers: { remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${env:REMOTE_TOKEN}' } } } },
      'mcp.json',
    );
    const shell = { ...env, REMOTE_TOKEN: 'remote-token-0123456789' };
    const refused = await service(['service', 'install', '--config', config, '--no-start'], { env: shell });
    expect(await refused.exit).toBe(1);
    expect(refused.stderr()).toContain('--allow-env REMOTE_TOKEN');
    const run = await service(['service', 'install', '--config', config, '--no-start', '--allow-env', 'REMOTE_TOKEN'], { env: shell });
    expect(await run.exit, run.stderr()).toBe(0);
    const keys = unitKeys(fs.readFileSync(path.join(configHome, 'systemd', 'user', 'xiaozhi-tray.service'), 'utf8'));
    expect(systemdWords(keys['Service.ExecStart'] as string)).toEqual(runsCli('--config', config, '--allow-env', 'REMOTE_TOKEN'));
  });

  it('install takes the options run takes (local server, its token file, tool mode) and passes them on, the token file by its full path', async () => {
    const { configHome, env } = linuxEnv();
    const cwd = h.tempDir();
    const config = h.writeConfig({ servers: [] }, 'tray.json', cwd);
    fs.writeFileSync(path.join(cwd, 'token'), 'service-token-0123456789abcdef\n', { mode: 0o600 });
    // Before: "unknown option --mcp-port" (exit 2), so a service could not serve Cursor or use the router.
    const run = await service(
      [
        'service',
        'install',
        '--config',
        'tray.json',
        '--no-start',
        '--mcp-port',
        '18791',
        '--mcp-token-file',
        'token',
        '--tool-mode',
        'router',
      ],
      { env, cwd },
    );
    expect(await run.exit, run.stderr()).toBe(0);
    const keys = unitKeys(fs.readFileSync(path.join(configHome, 'systemd', 'user', 'xiaozhi-tray.service'), 'utf8'));
    expect(systemdWords(keys['Service.ExecStart'] as string).slice(2)).toEqual([
      'run',
      '--config',
      config,
      '--mcp-port',
      '18791',
      '--mcp-token-file',
      path.join(cwd, 'token'),
      '--tool-mode',
      'router',
    ]);
    // The token itself is never written into the unit (every user can read it): only its file.
    const inline = await service(
      ['service', 'install', '--config', config, '--no-start', '--mcp-token', 'service-token-0123456789abcdef'],
      {
        env,
      },
    );
    expect(await inline.exit).toBe(2);
    expect(inline.stderr()).toContain('--mcp-token-file');
    const wrong = await service(['service', 'install', '--config', config, '--no-start', '--mcp-port', 'x'], { env });
    expect(await wrong.exit).toBe(2);
    expect(wrong.stderr()).toContain('--mcp-port must be a port number, not "x"');
  });

  it('install writes a unit that runs node on this CLI with the config, restarts on failure, stops gracefully', async () => {
    const { configHome, env } = linuxEnv();
    const dir = h.namedDir('my configs 100%');
    const config = h.writeConfig({ mcpServers: { fx: fixtureEntry() } }, 'tray $HOME.json', dir);
    const run = await service(['service', 'install', '--config', config, '--no-start', '--log-format', 'json'], {
      env: { ...env, PATH: `/opt/my tools%/bin:${process.env.PATH}` },
    });
    expect(await run.exit, run.stderr()).toBe(0);
    const unitFile = path.join(configHome, 'systemd', 'user', 'xiaozhi-tray.service');
    expect(run.stdout()).toContain(`Wrote ${unitFile}`);
    expect(run.stdout()).toContain(
      'Not started (--no-start). To start it:\n  systemctl --user daemon-reload\n  systemctl --user enable xiaozhi-tray.service\n  systemctl --user restart xiaozhi-tray.service',
    );

    const keys = unitKeys(fs.readFileSync(unitFile, 'utf8'));
    expect(systemdWords(keys['Service.ExecStart'] as string)).toEqual(runsCli('--config', config, '--log-format', 'json'));
    expect(keys['Service.WorkingDirectory']?.replace(/%%/g, '%')).toBe(dir);
    expect(systemdWords(keys['Service.Environment'] as string)).toEqual([`PATH=/opt/my tools%/bin:${process.env.PATH}`]);
    expect(keys).toMatchObject({
      'Service.Type': 'simple',
      'Service.Restart': 'on-failure',
      'Service.KillMode': 'mixed',
      'Install.WantedBy': 'default.target',
    });
    // systemd's own parser, where it is installed (it cannot load the unit here, but it can read it).
    const verify = spawnSync('systemd-analyze', ['verify', unitFile], { encoding: 'utf8' });
    if (!verify.error) expect(`${verify.stdout}${verify.stderr}`.trim()).toBe('');

    const status = await service(['service', 'status'], { env: { ...env, PATH: fakeSystemctl('echo active') } });
    expect(await status.exit).toBe(0);
    expect(status.stdout()).toContain(`Installed: ${unitFile}`);
    expect(status.stdout()).toContain('\nState: active\n');
    expect(status.stdout()).toContain('journalctl --user -u xiaozhi-tray -f');

    const removed = await service(['service', 'uninstall'], { env: { ...env, PATH: h.tempDir() } });
    expect(await removed.exit).toBe(0);
    expect(fs.existsSync(unitFile)).toBe(false);
    const again = await service(['service', 'uninstall'], { env });
    expect(await again.exit).toBe(0);
    expect(again.stdout()).toContain('Not installed');
    const none = await service(['service', 'status'], { env });
    expect(await none.exit).toBe(1);
  });

  it('installed through npx, the unit gets the PATH of the shell, without what npm put in front of it', async () => {
    const { configHome, env } = linuxEnv();
    const config = h.writeConfig({});
    const shell = '/opt/tools/bin:/usr/local/bin:/usr/bin:/bin';
    // What npm exec / npx puts in front: node_modules/.bin of this folder and of every folder above it
    // (/tmp/node_modules/.bin among them, which anyone may create), npx's cache, and its node-gyp shim.
    const npmPath = [
      path.join(path.dirname(config), 'node_modules', '.bin'),
      '/tmp/node_modules/.bin',
      '/node_modules/.bin',
      '/home/pi/.npm/_npx/0123abcd/node_modules/.bin',
      '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
      shell,
    ].join(':');
    const run = await service(['service', 'install', '--config', config, '--no-start'], {
      env: { ...env, PATH: npmPath, npm_command: 'exec', npm_lifecycle_event: 'npx' },
    });
    expect(await run.exit, run.stderr()).toBe(0);
    const keys = unitKeys(fs.readFileSync(path.join(configHome, 'systemd', 'user', 'xiaozhi-tray.service'), 'utf8'));
    expect(systemdWords(keys['Service.Environment'] as string)).toEqual([`PATH=${shell}`]);
  });

  it("says plainly when systemd's user manager cannot be reached: status and uninstall exit non-zero", async () => {
    const { configHome, env } = linuxEnv();
    const config = h.writeConfig({});
    expect((await service(['service', 'install', '--config', config, '--no-start'], { env })).code).toBe(0);
    const unitFile = path.join(configHome, 'systemd', 'user', 'xiaozhi-tray.service');
    const status = await service(['service', 'status'], { env: { ...env, PATH: fakeSystemctl(BUS_ERROR) } });
    expect(await status.exit).toBe(1);
    expect(status.stdout()).toContain("State: unknown: systemd's user manager is not reachable from this shell");
    expect(status.stdout()).not.toContain('Failed to connect to bus');
    const removed = await service(['service', 'uninstall'], { env: { ...env, PATH: fakeSystemctl(BUS_ERROR) } });
    expect(await removed.exit).toBe(1);
    expect(removed.stdout()).not.toContain('Stopped and removed');
    expect(removed.stderr()).toContain(
      "Could not stop the service (systemctl --user disable --now xiaozhi-tray.service): systemd's user manager is not reachable from this shell",
    );
    expect(removed.stderr()).toContain(
      `Removed ${unitFile}, but the service may still be running. Once that works, stop it with:\n  systemctl --user disable --now xiaozhi-tray.service`,
    );
    expect(fs.existsSync(unitFile)).toBe(false);
  });

  it('says so when it cannot start the service, and leaves the unit in place', async () => {
    const { configHome, env } = linuxEnv();
    const config = h.writeConfig({});
    // No systemctl on this PATH (there is no systemd to talk to here either way).
    const run = await service(['service', 'install', '--config', config, '--name', 'work'], { env: { ...env, PATH: h.tempDir() } });
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toContain('Could not start the service: systemctl --user daemon-reload: systemctl is not available here');
    expect(fs.existsSync(path.join(configHome, 'systemd', 'user', 'work.service'))).toBe(true);
  });

  it('refuses a config that does not load, a missing --config, and an unknown action', async () => {
    const { configHome, env } = linuxEnv();
    const broken = h.writeConfig({ servers: [{ name: 'x', transport: 'pipe' }] });
    const bad = await service(['service', 'install', '--config', broken, '--no-start'], { env });
    expect(await bad.exit).toBe(1);
    expect(bad.stderr()).toContain('must be one of stdio, sse, streamable-http');
    expect(fs.existsSync(path.join(configHome, 'systemd'))).toBe(false);
    const missing = await service(['service', 'install'], { env });
    expect(await missing.exit).toBe(2);
    expect(missing.stderr()).toContain('service install needs --config FILE');
    const typo = await service(['service', 'instal'], { env });
    expect(await typo.exit).toBe(2);
    expect(typo.stderr()).toContain('Did you mean install?');
  });

  it('refuses a config path or --host with a line break or another control character, naming it, and writes nothing', async () => {
    const { configHome, env } = linuxEnv();
    const dir = h.namedDir('evil\nExecStartPre=touch pwned');
    const config = h.writeConfig({}, 'tray.json', dir);
    const newline = await service(['service', 'install', '--config', config, '--no-start'], { env });
    expect(await newline.exit).toBe(1);
    expect(newline.stderr()).toContain(
      `service install: the config path (${JSON.stringify(config)}) contains a line break, which a service file cannot hold. Nothing was written.`,
    );
    const host = await service(
      ['service', 'install', '--config', h.writeConfig({}), '--host', '0.0.0.0\rExecStartPre=/bin/sh', '--no-start'],
      {
        env,
      },
    );
    expect(await host.exit).toBe(1);
    expect(host.stderr()).toContain('the value of --host ("0.0.0.0\\rExecStartPre=/bin/sh") contains a line break');
    const bell = await service(['service', 'install', '--config', h.writeConfig({}), '--no-start'], {
      env: { ...env, PATH: `/usr/bin\u0007:${process.env.PATH}` },
    });
    expect(await bell.exit).toBe(1);
    expect(bell.stderr()).toContain('PATH ("/usr/bin\\u0007:');
    expect(bell.stderr()).toContain('contains the control character U+0007');
    expect(fs.existsSync(path.join(configHome, 'systemd', 'user', 'xiaozhi-tray.service'))).toBe(false);
    // The plist, written on macOS, is refused the same way (XML cannot hold most control characters).
    const spec = {
      name: 'n',
      execPath: '/n',
      script: '/s.js',
      args: ['run', '--config', '/a\u0001b.json'],
      workingDirectory: '/',
      path: '/bin',
    };
    expect(() => launchdPlist(spec, 'me.xiaozhi.tray.n', '/log')).toThrow(
      'the config path ("/a\\u0001b.json") contains the control character U+0001',
    );
  });

  it('quotes what systemd would otherwise expand or split', () => {
    expect(systemdWord('/usr/bin/node')).toBe('/usr/bin/node');
    expect(systemdWord('/a b/c"d\\e')).toBe('"/a b/c\\"d\\\\e"');
    expect(systemdWord('50%$X')).toBe('"50%%$$X"');
    expect(systemdWord('PATH=/a:$B', false)).toBe('"PATH=/a:$B"');
    expect(systemdUnit({ name: 'n', execPath: '/n', script: '/s.js', args: ['run'], workingDirectory: '/', path: '/bin' })).toContain(
      'ExecStart=/n /s.js run\n',
    );
  });
});
