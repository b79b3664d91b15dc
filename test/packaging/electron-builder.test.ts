import { execFileSync } from 'node:child_process';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { extractFile, listPackage } from '@electron/asar';
import { FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv from 'ajv';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { trayIconPath } from '../../src/main/electron/tray-status';
import { fixtureServer } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { startLocalServerApp } from '../helpers/local-server-app';
import { isRunning } from '../helpers/processes';
import { stopChild } from '../helpers/stop-child';
import { scaled } from '../helpers/time-scale';
import { type Feed, startFeed, yml } from '../helpers/update-feed';
import { waitFor } from '../helpers/wait';

const ROOT = path.resolve(__dirname, '../..');
const STAND_IN = path.join(ROOT, 'test', 'fixtures', 'stand-in-electron.cjs');
let work = '';
let asar = '';
let files: string[] = [];

describe('packaging', () => {
  it('electron-builder.yml is valid against electron-builder’s own schema', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
    const config = yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
    expect(config).toMatchObject({
      mac: { extendInfo: { LSUIElement: true } },
      nsis: { perMachine: false, allowToChangeInstallationDirectory: true },
    });
  });

  it('locks the runtime down with fuses, updates from GitHub, and has the .deb recommend a CJK font', () => {
    const config = yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      resetAdHocDarwinSignature: true,
    });
    expect(config.publish).toMatchObject({ provider: 'github', owner: 'xiaozhi-tray', repo: 'xiaozhi-tray' });
    expect((config.deb as { recommends: string[] }).recommends).toEqual(
      expect.arrayContaining(['fonts-noto-cjk', 'gnome-shell-extension-appindicator']),
    );
    // electron-updater on macOS installs from the zip (Squirrel.Mac); the DMG is for people.
    const macTargets = (config.mac as { target: { target: string }[] }).target.map((t) => t.target);
    expect(macTargets).toEqual(expect.arrayContaining(['dmg', 'zip']));
  });

  it('has a release workflow that builds installers on Windows, macOS and Linux for a version tag', () => {
    const workflow = yaml.load(fs.readFileSync(path.join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
      on: { push: { tags: string[] } };
      jobs: { installers: { strategy: { matrix: { include: { os: string; target: string }[] } }; steps: { run?: string }[] } };
    };
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(workflow.jobs.installers.strategy.matrix.include.map((m) => m.os).sort()).toEqual([
      'macos-latest',
      'ubuntu-latest',
      'windows-latest',
    ]);
    expect(workflow.jobs.installers.steps.some((s) => s.run?.includes('electron-builder'))).toBe(true);
  });

  describe('electron-builder --dir with a stand-in Electron', () => {
    beforeAll(() => {
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-pack-'));
      // Electron cannot be downloaded here: a folder shaped like its Linux distribution stands in. Its
      // "binary" carries a fuse wire laid out as Electron's (sentinel, version, length, one byte per
      // fuse) with Electron's defaults, so electron-builder really flips the fuses in it.
      const dist = path.join(work, 'electron-dist');
      fs.mkdirSync(path.join(dist, 'locales'), { recursive: true });
      const wire = Buffer.concat([Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'), Buffer.from([1, 8]), Buffer.from('10110001')]);
      // Run, it is the stand-in Electron of test/fixtures/stand-in-electron.cjs on this Node.
      const script = `#!/bin/sh\nexec "${process.execPath}" "${STAND_IN}" "$(dirname "$0")/resources" "$@"\n# `;
      fs.writeFileSync(path.join(dist, 'electron'), Buffer.concat([Buffer.from(script), wire, Buffer.from('\n')]), { mode: 0o755 });
      for (const locale of ['en-US', 'zh-CN', 'de']) fs.writeFileSync(path.join(dist, 'locales', `${locale}.pak`), '');
      execFileSync(
        process.execPath,
        [
          path.join(ROOT, 'node_modules/electron-builder/cli.js'),
          '--dir',
          '--linux',
          '--x64',
          '--publish',
          'never',
          `-c.electronDist=${dist}`,
          `-c.directories.output=${path.join(work, 'out')}`,
        ],
        { cwd: ROOT, stdio: 'pipe', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } },
      );
      asar = path.join(work, 'out', 'linux-unpacked', 'resources', 'app.asar');
      files = listPackage(asar, { isPack: false }).map((f) => f.replace(/\\/g, '/'));
    }, 180_000);
    afterAll(() => {
      if (work) fs.rmSync(work, { recursive: true, force: true });
    });

    it('produces the executable and keeps only the locales we ship', () => {
      const unpacked = path.join(work, 'out', 'linux-unpacked');
      expect(fs.existsSync(path.join(unpacked, 'xiaozhi-tray'))).toBe(true);
      expect(fs.readdirSync(path.join(unpacked, 'locales')).sort()).toEqual(['en-US.pak', 'zh-CN.pak']);
    });

    it('puts the main, preload and renderer bundles and the assets in app.asar, and nothing else', () => {
      expect(files).toContain('/out/main/index.js');
      expect(files).toContain('/out/preload/index.js');
      // Claude Desktop's `connect` runs in the main bundle (the runAsNode fuse is off): no CLI bundle.
      expect(files).not.toContain('/out/cli/index.js');
      expect(files).toContain('/out/renderer/index.html');
      expect(files.some((f) => /^\/out\/renderer\/assets\/index-.*\.js$/.test(f))).toBe(true);
      expect(files.some((f) => f.startsWith('/node_modules/'))).toBe(false);
      expect(files.some((f) => f.endsWith('.map'))).toBe(false);
      expect(files.some((f) => f.startsWith('/src/') || f.startsWith('/test/'))).toBe(false);
    });

    it('flips the fuses in the packaged binary', async () => {
      const fuses = await getCurrentFuseWire(path.join(work, 'out', 'linux-unpacked', 'xiaozhi-tray'));
      const on = 49;
      const off = 48;
      expect(fuses.version).toBe(FuseVersion.V1);
      expect(fuses[FuseV1Options.RunAsNode]).toBe(off);
      expect(fuses[FuseV1Options.EnableCookieEncryption]).toBe(on);
      expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(off);
      expect(fuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(off);
      expect(fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(on);
      expect(fuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(on);
      expect(fuses[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(off);
    });

    it('loads the window from app:// and serves it from the archive; the updater is bundled and finds its feed', () => {
      const main = extractFile(asar, 'out/main/index.js').toString();
      expect(main).toContain('registerSchemesAsPrivileged');
      expect(main).toMatch(/APP_SCHEME = "app";\s+var APP_HOST = "xiaozhi-tray";/);
      expect(main).toMatch(/protocol\.handle\(APP_SCHEME, appProtocolHandler\(RENDERER\)\)/);
      expect(main).toMatch(/pageUrl: PAGE_URL/);
      expect(main).not.toMatch(/pathToFileURL\([^)]*renderer/);
      // The protocol serves out/renderer from inside app.asar: the page and what it references are there.
      expect(files).toContain('/out/renderer/index.html');
      // electron-updater and its dependencies are in the bundle (nothing is required from node_modules).
      expect(main).toContain('ERR_UPDATER_CHANNEL_FILE_NOT_FOUND');
      for (const dependency of ['electron-updater', 'builder-util-runtime', 'fs-extra', 'js-yaml', 'semver', 'lazy-val']) {
        expect(main, dependency).not.toContain(`require("${dependency}")`);
      }
      const feed = yaml.load(fs.readFileSync(path.join(work, 'out', 'linux-unpacked', 'resources', 'app-update.yml'), 'utf8'));
      expect(feed).toMatchObject({
        provider: 'github',
        owner: 'xiaozhi-tray',
        repo: 'xiaozhi-tray',
        updaterCacheDirName: expect.any(String),
      });
    });

    it('boots from the archive under a stand-in Electron: app:// page, connected endpoint, the bundled updater downloads from a mirror, clean quit', async () => {
      // The packaged main bundle, run by plain Node with Electron's API stood in for
      // (test/fixtures/stand-in-electron.cjs): what only Electron can do is not checked here.
      const resources = path.join(work, 'out', 'linux-unpacked', 'resources');
      const dataDir = path.join(work, 'data');
      const pidFile = path.join(work, 'pids.txt');
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(work, 'current.AppImage'), 'old');
      let xiaozhi: FakeXiaozhi | undefined;
      let feed: Feed | undefined;
      let child: ChildProcess | undefined;
      try {
        xiaozhi = await FakeXiaozhi.start();
        feed = await startFeed(yml('0.2.0'));
        const settings = {
          version: 1,
          endpoints: [{ id: 'pack', name: 'pack', url: xiaozhi.url(), enabled: true }],
          servers: [fixtureServer('packed', { FIXTURE_PID_FILE: pidFile })],
          updates: { enabled: true, mirrorUrl: feed.url },
        };
        fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(settings));
        const app = spawn(process.execPath, [STAND_IN, resources], {
          cwd: work,
          stdio: ['pipe', 'pipe', 'pipe'],
          env: {
            ...process.env,
            XIAOZHI_TRAY_DATA_DIR: dataDir,
            APPIMAGE: path.join(work, 'current.AppImage'),
            XDG_CACHE_HOME: path.join(work, 'cache'),
            XDG_CONFIG_HOME: path.join(work, 'config'),
          },
        });
        child = app;
        let out = '';
        app.stdout.on('data', (d: Buffer) => (out += d.toString()));
        app.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const exited = new Promise<number | null>((resolve) => app.on('exit', resolve));
        const logFile = path.join(dataDir, 'logs', 'xiaozhi-tray.log');
        const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
        const session = await xiaozhi.connection(0, 20_000);
        await session.initialize();
        await waitFor(() => log().includes('[endpoint:pack] connected'), 20_000, `"connected" in the log\n${out}`);
        expect(out).toContain('[stand-in electron] privileged: app\n');
        await waitFor(() => log().includes('window: loaded app://xiaozhi-tray/index.html'), 10_000, `the page from app://\n${log()}`);

        app.stdin.write('invoke checkForUpdates\n');
        await waitFor(() => out.includes('→ checkForUpdates'), 20_000, `the check's answer\n${out}`);
        const answer = (command: string) =>
          JSON.parse(
            out
              .split('\n')
              .find((l) => l.startsWith(`→ ${command} `))!
              .slice(command.length + 3),
          ) as unknown;
        expect(answer('checkForUpdates')).toMatchObject({ state: 'downloading', currentVersion: '0.1.0', version: '0.2.0' });
        await waitFor(() => log().includes('version 0.2.0 is downloaded'), 20_000, `the download\n${log()}`);
        app.stdin.write('invoke getUpdateStatus\n');
        await waitFor(() => out.includes('→ getUpdateStatus'), 10_000, 'the update status');
        expect(answer('getUpdateStatus')).toMatchObject({ state: 'ready', version: '0.2.0' });

        // The file exists a moment before its pid is in it: an empty read would be pid 0 (this process group, always "running").
        const serverPids = () =>
          (fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : '')
            .split('\n')
            .filter((line) => /^\d+$/.test(line.trim()))
            .map(Number)
            .filter((pid) => pid > 0);
        await waitFor(() => serverPids().length > 0, 20_000, 'the server to start');
        const pids = serverPids();
        app.stdin.write('quit\n');
        expect(await exited).toBe(0);
        // A zombie waiting for this container's init to reap it is gone all the same (see isRunning).
        // Should the clean stop miss its deadline, the watchdog's grace and kill wait (7 s) follow the exit.
        const stillThere = () =>
          pids
            .filter(isRunning)
            .map((pid) => `${pid}: ${fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, 'utf8').slice(0, 80) : '?'}`)
            .join('\n');
        await waitFor(
          () => !pids.some(isRunning),
          20_000,
          () => `the server process to be gone\n${stillThere()}\n${out}\n${log()}`,
        );
        expect(log()).not.toMatch(/ERROR \[app\]/);
      } finally {
        // A failed run leaves nothing behind: SIGTERM quits the app, which stops its server.
        if (child && child.exitCode === null) {
          const gone = new Promise((resolve) => child!.once('exit', resolve));
          child.kill();
          await gone;
        }
        await xiaozhi?.close();
        await feed?.close();
      }
    }, 90_000);

    // The packaged executable is a shell script standing in for Electron: POSIX only (Windows
    // cannot start an extensionless script; cross-spawn hands it to cmd.exe, which refuses it).
    it.skipIf(process.platform === 'win32')(
      "relays a real MCP client to a running local server in the packaged app's connect mode, with no tray or window",
      async () => {
        const dataDir = fs.mkdtempSync(path.join(work, 'connect-'));
        const server = await startLocalServerApp(dataDir, 'packaged-connect-token-0123456789');
        const client = new Client({ name: 'claude-ai', version: '0.1.0' }, { capabilities: {} });
        let stderr = '';
        try {
          // As Claude Desktop starts it: the app's binary, `connect`, no ELECTRON_RUN_AS_NODE.
          const transport = new StdioClientTransport({
            command: path.join(work, 'out', 'linux-unpacked', 'xiaozhi-tray'),
            args: ['connect', '--client', 'claude-desktop'],
            env: { ...(process.env as Record<string, string>), XIAOZHI_TRAY_DATA_DIR: dataDir, XIAOZHI_TRAY_STATE_DIR: '' },
            stderr: 'pipe',
          });
          transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
          await client.connect(transport);
          expect(
            (await client.listTools()).tools.map((t) => t.name),
            stderr,
          ).toContain('echo');
          await client.close();
          await waitFor(() => stderr.includes('[stand-in electron] exit 0'), 10_000, `the relay to exit\n${stderr}`);
          expect(stderr).not.toMatch(/tray created|window created|single-instance lock/);
        } finally {
          await client.close().catch(() => undefined);
          await stopChild(server);
        }
      },
      60_000,
    );

    // The packaged executable is a shell script standing in for Electron: POSIX only.
    it.skipIf(process.platform === 'win32')(
      'passes npm run smoke (the release-candidate check) under the stand-in Electron',
      async () => {
        const app = path.join(work, 'out', 'linux-unpacked', 'xiaozhi-tray');
        const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
          execFile(
            process.execPath,
            [path.join(ROOT, 'scripts', 'smoke.mjs'), '--app', app],
            { cwd: ROOT, timeout: scaled(120_000) },
            (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
          );
        });
        expect(result.out, result.out).toMatch(/smoke: \d+ passed, 0 failed/);
        expect(result.code, result.out).toBe(0);
        expect(result.out).toContain('ok   the window loaded from app://');
        // Every fuse electron-builder.yml sets, read from the packaged binary.
        for (const fuse of [
          'ELECTRON_RUN_AS_NODE is ignored',
          'NODE_OPTIONS is ignored',
          '--inspect is ignored',
          'the app loads only from app.asar',
          'cookies are encrypted',
          "app.asar's integrity is validated",
          'file:// has no extra privileges',
        ]) {
          expect(result.out).toContain(`ok   fuse: ${fuse}`);
        }
        expect(result.out).toContain('ok   no server process is left');
      },
      150_000,
    );

    it("points package.json's main inside the archive", () => {
      const pkg = JSON.parse(extractFile(asar, 'package.json').toString());
      expect(files).toContain(`/${pkg.main}`);
    });

    it('contains every asset the shell loads', () => {
      const wanted = ['/assets/icon.png'];
      for (const platform of ['darwin', 'linux', 'win32'] as const) {
        for (const state of ['connected', 'partial', 'connecting', 'stopped', 'error'] as const) {
          const file = trayIconPath('/assets', state, platform);
          wanted.push(file, file.replace('.png', '@2x.png'));
        }
      }
      for (const file of wanted) expect(files, file).toContain(file);
      // The page references only files that are there.
      const html = extractFile(asar, 'out/renderer/index.html').toString();
      for (const ref of html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)) expect(files).toContain(`/out/renderer/${ref[1]}`);
    });
  });
});
