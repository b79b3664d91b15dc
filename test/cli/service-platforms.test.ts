// @vitest-environment jsdom
// jsdom only for its XML parser (DOMParser), to read the generated plist.
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { CliContext } from '../../src/cli/command';
import { runCommand } from '../../src/cli/commands/run';
import { serviceCommand } from '../../src/cli/commands/service';
import { parseArgs } from '../../src/main/core/command-line/args';
import { type Language, translator } from '../../src/shared/i18n/translate';
import { CliHarness } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

/** The command in this process, as it would run on another OS (only the platform and home differ). */
async function runOn(platform: NodeJS.Platform, argv: string[], home: string, entryScript?: string, language: Language = 'en') {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    version: '0.0.0-test',
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    stdout: process.stdout,
    stderr: process.stderr,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    cwd: home,
    platform,
    home,
    stdin: process.stdin,
    language,
    t: translator(language),
    execPath: platform === 'win32' ? 'C:\\Program Files\\nodejs\\node.exe' : '/usr/local/bin/node',
    entryScript:
      entryScript ??
      (platform === 'win32'
        ? 'C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules\\xiaozhi-tray\\bin\\xiaozhi-tray.js'
        : '/usr/local/lib/node_modules/xiaozhi-tray/bin/xiaozhi-tray.js'),
  };
  const code = await serviceCommand.run(parseArgs(argv, serviceCommand.options, 'service'), ctx);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('service on macOS and Windows', () => {
  it('macOS: writes a launchd agent that runs at load, is kept alive after a failure, and logs to a file', async () => {
    const home = h.tempDir();
    const config = h.writeConfig({}, 'tray & co.json', home);
    const run = await runOn('darwin', ['install', '--config', config, '--no-start'], home);
    expect(run.code, run.err).toBe(0);
    const file = path.join(home, 'Library', 'LaunchAgents', 'me.xiaozhi.tray.xiaozhi-tray.plist');
    expect(run.out).toContain(`Wrote ${file}`);
    expect(run.out).toContain('launchctl bootstrap gui/');
    const doc = new DOMParser().parseFromString(fs.readFileSync(file, 'utf8'), 'text/xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    const dict = doc.querySelector('plist > dict') as Element;
    const value = (key: string) =>
      [...dict.children].find((el, i, all) => all[i - 1]?.tagName === 'key' && all[i - 1]?.textContent === key && el.tagName !== 'key');
    expect(value('Label')?.textContent).toBe('me.xiaozhi.tray.xiaozhi-tray');
    expect([...(value('ProgramArguments')?.children ?? [])].map((s) => s.textContent)).toEqual([
      '/usr/local/bin/node',
      '/usr/local/lib/node_modules/xiaozhi-tray/bin/xiaozhi-tray.js',
      'run',
      '--config',
      config,
    ]);
    expect(value('RunAtLoad')?.tagName).toBe('true');
    expect(value('KeepAlive')?.innerHTML.replace(/\s/g, '')).toBe('<key>SuccessfulExit</key><false/>');
    expect(value('StandardOutPath')?.textContent).toBe(path.join(home, 'Library', 'Logs', 'xiaozhi-tray', 'xiaozhi-tray.log'));
    expect(value('EnvironmentVariables')?.textContent?.replace(/\s+/g, ' ').trim()).toBe('PATH /usr/local/bin:/usr/bin:/bin');
    expect(fs.existsSync(path.join(home, 'Library', 'Logs', 'xiaozhi-tray'))).toBe(true);
  });

  it('install takes every option run takes (but --mcp-token, refused) and writes each as run reads it', async () => {
    const home = h.tempDir();
    const config = h.writeConfig({}, 'tray.json', home);
    fs.writeFileSync(path.join(home, 'token'), 'service-token-0123456789abcdef\n', { mode: 0o600 });
    const names = (command: typeof runCommand) => command.options.map((o) => o.name).sort();
    expect(names(serviceCommand)).toEqual(expect.arrayContaining(names(runCommand)));
    const given = ['--ui', '--port', '8080', '--host', '0.0.0.0', '--mcp-port', '18791', '--mcp-token-file', 'token'];
    const more = [
      '--tool-mode',
      'router',
      '--log-level',
      'debug',
      '--log-format',
      'json',
      '--allow-env',
      'REMOTE_TOKEN',
      '--fetch-runtimes',
    ];
    const run = await runOn('darwin', ['install', '--config', config, '--no-start', ...given, ...more], home);
    expect(run.code, run.err).toBe(0);
    const plist = fs.readFileSync(path.join(home, 'Library', 'LaunchAgents', 'me.xiaozhi.tray.xiaozhi-tray.plist'), 'utf8');
    const doc = new DOMParser().parseFromString(plist, 'text/xml');
    const keys = [...doc.querySelectorAll('plist > dict > key')];
    const program = keys.find((k) => k.textContent === 'ProgramArguments')?.nextElementSibling;
    const words = [...(program?.children ?? [])].map((w) => w.textContent ?? '');
    expect(words.slice(0, 3)).toEqual(['/usr/local/bin/node', '/usr/local/lib/node_modules/xiaozhi-tray/bin/xiaozhi-tray.js', 'run']);
    // What the service runs is a command line run accepts, with every option given.
    const parsed = parseArgs(words.slice(3), runCommand.options, 'run');
    expect(parsed.options).toEqual({
      config,
      ui: true,
      port: '8080',
      host: '0.0.0.0',
      'mcp-port': '18791',
      'mcp-token-file': path.join(home, 'token'),
      'tool-mode': 'router',
      'log-level': 'debug',
      'log-format': 'json',
      'allow-env': 'REMOTE_TOKEN',
      'fetch-runtimes': true,
    });
  });

  it('says what it wrote and how to start it in Chinese', async () => {
    const home = h.tempDir();
    const config = h.writeConfig({}, 'tray.json', home);
    const run = await runOn('darwin', ['install', '--config', config, '--no-start'], home, undefined, 'zh-CN');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`已写入 ${path.join(home, 'Library', 'LaunchAgents', 'me.xiaozhi.tray.xiaozhi-tray.plist')}`);
    expect(run.out).toContain('没有启动（--no-start）。要启动它，请运行：\n  launchctl');
    // No launchctl here: installed, its state unknown.
    const status = await runOn('darwin', ['status'], home, undefined, 'zh-CN');
    expect(status.out).toContain('已安装：');
    expect(status.out).toContain('状态：');
  });

  it("Windows: explains the alternatives with this machine's paths, and writes nothing", async () => {
    const home = h.tempDir();
    const config = h.writeConfig({}, 'tray.json', home);
    const run = await runOn('win32', ['install', '--config', config], home);
    expect(run.code).toBe(1);
    expect(run.out).toContain('The desktop app is the way to keep the bridge running');
    expect(run.out).toContain(
      `schtasks /Create /TN "xiaozhi-tray" /SC ONLOGON /RL LIMITED /F /TR "\\"C:\\Program Files\\nodejs\\node.exe\\" \\"C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules\\xiaozhi-tray\\bin\\xiaozhi-tray.js\\" run --config ${config}"`,
    );
    expect(fs.readdirSync(home)).toEqual(['tray.json']);
    expect((await runOn('win32', ['status'], home)).out).toContain('schtasks /Delete /TN "xiaozhi-tray" /F');
  });

  it("warns when the CLI runs from npx's cache, whose path a service must not depend on", async () => {
    const home = h.tempDir();
    const config = h.writeConfig({}, 'tray.json', home);
    const run = await runOn(
      'darwin',
      ['install', '--config', config, '--no-start'],
      home,
      '/Users/me/.npm/_npx/1a2b3c/node_modules/xiaozhi-tray/bin/xiaozhi-tray.js',
    );
    expect(run.code).toBe(0);
    expect(run.err).toContain("warning: this copy of xiaozhi-tray runs from npx's cache");
    expect(run.err).toContain('npm install -g xiaozhi-tray');
  });
});
