import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { version } from '../../package.json';
import { waitFor } from '../helpers/wait';
import { allGone, CliHarness, fixturePids, TOKEN, waitForText } from './cli-harness';

/**
 * What a user gets from `npm i xiaozhi-tray`: the package scripts/pack.mjs makes (npm pack, with the
 * bundled dependencies left out of its package.json), installed offline into a fresh folder outside
 * the repository, run through npx. (The bundles are built by the global setup: --no-build.)
 */
const ROOT = path.resolve(__dirname, '../..');
const h = new CliHarness();
let work = '';
let app = '';
let tarball = '';

const npmEnv = () => ({
  ...process.env,
  npm_config_cache: path.join(work, 'npm-cache'),
  npm_config_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
});

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-pack-cli-'));
  const packed = JSON.parse(
    execFileSync(process.execPath, ['scripts/pack.mjs', '--no-build', '--json', '--pack-destination', work], {
      cwd: ROOT,
      env: npmEnv(),
      encoding: 'utf8',
    }),
  ) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, (packed[0] as { filename: string }).filename);
  app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{ "name": "trying-xiaozhi-tray", "private": true }\n');
  execFileSync('npm', ['install', tarball], { cwd: app, env: npmEnv(), stdio: 'pipe' });
}, 120_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

afterEach(() => h.cleanup());

/** The bridge's own pid, from its first log line (npx runs it as a grandchild). */
const bridgePid = (stdout: string) => Number(/xiaozhi-tray \S+ \(pid (\d+)\), config/.exec(stdout)?.[1]);

const npx = (args: string[], options: Parameters<CliHarness['spawn']>[1] = {}) =>
  h.spawn(args, { command: ['npx', 'xiaozhi-tray'], cwd: app, ...options, env: { ...npmEnv(), ...options.env } });

describe('the published CLI package', () => {
  it('holds the CLI bundle, the web page and nothing of the repository; installs with no dependency, Electron least of all', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    // The watchdog too: without it a bridge that is killed would leave its servers running.
    expect(files).toEqual(
      expect.arrayContaining([
        'package/bin/xiaozhi-tray.js',
        'package/out/cli/index.js',
        'package/out/cli/watchdog.js',
        'package/out/renderer/index.html',
        'package/package.json',
        'package/README.md',
      ]),
    );
    expect(files.filter((f) => /^package\/(src|test|node_modules|scripts|bench)\//.test(f) || f.endsWith('.map'))).toEqual([]);
    const installed = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'xiaozhi-tray', 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    // The repository lists what the bundles carry as dependencies (for scanners); the package lists none.
    const repository = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(repository.dependencies as object)).toContain('@modelcontextprotocol/sdk');
    expect(installed.dependencies ?? {}).toEqual({});
    expect(installed.version).toBe(repository.version);
    expect(installed.private).toBeUndefined();
    expect(fs.readdirSync(path.join(app, 'node_modules')).sort()).toEqual(['.bin', '.package-lock.json', 'xiaozhi-tray']);
  });

  it('npx xiaozhi-tray --version and help work from the install folder', async () => {
    const run = npx(['--version']);
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toBe(`${version}\n`);
    const help = npx(['help', 'init']);
    expect(await help.exit).toBe(0);
    expect(help.stdout()).toContain('xiaozhi-tray init');
  });

  it('npx xiaozhi-tray run serves xiaozhi and its web page; Ctrl+C stops everything and exits 130', async () => {
    const { xiaozhi, file, pidFile } = await h.endpointAndServerTree();
    // Its own process group, as a terminal's foreground job: Ctrl+C goes to all of it.
    const run = npx(['run', '--config', file, '--ui'], { env: { MCP_ENDPOINT: xiaozhi.url(TOKEN) }, detached: true });
    const session = await xiaozhi.connection(0, 20_000);
    await session.initialize();
    await waitFor(
      async () => (await session.listAllTools(Math.floor(Math.random() * 1e6))).tools.some((t) => t.name === 'echo'),
      15_000,
      'echo',
    );
    const call = await session.request('c1', 'tools/call', { name: 'echo', arguments: { text: '安装包' } });
    expect(call.result?.content?.[0]?.text).toBe('fx: 安装包');
    await waitForText(run.stdout, /http:\/\/127\.0\.0\.1:\d+\/#\/overview\?token=\S+/);
    const page = await fetch((/(http:\/\/127\.0\.0\.1:\d+)\//.exec(run.stdout()) as RegExpExecArray)[1] as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const tree = [bridgePid(run.stdout()), ...(await fixturePids(pidFile, 2))];
    h.track(tree);

    process.kill(-(run.child.pid as number), 'SIGINT');
    // What a shell reports: 130 whether npx exits with it or dies of the SIGINT itself.
    const code = await run.exit;
    expect(code ?? 128 + (os.constants.signals[run.signal() as NodeJS.Signals] ?? 0)).toBe(130);
    await allGone(tree);
    await waitForText(run.stdout, 'SIGINT: stopping every server');
  });

  it('SIGTERM to npx (which does not pass it on): the bridge notices and stops every server', async () => {
    const { xiaozhi, file, pidFile } = await h.endpointAndServerTree();
    const run = npx(['run', '--config', file], { env: { MCP_ENDPOINT: xiaozhi.url(TOKEN) } });
    const session = await xiaozhi.connection(0, 20_000);
    await session.initialize();
    await waitForText(run.stdout, /\(pid \d+\), config/);
    const tree = [bridgePid(run.stdout()), ...(await fixturePids(pidFile, 2))];
    h.track(tree);
    expect(tree[0]).not.toBe(run.child.pid);

    run.child.kill('SIGTERM');
    await run.exit;
    await allGone(tree);
    await waitForText(run.stdout, /the process that started the bridge \(pid \d+\) went away: stopping every server/);
  });
});
