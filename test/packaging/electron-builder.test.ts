import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import yaml from 'js-yaml';
import { listPackage, extractFile } from '@electron/asar';
import { trayIconPath } from '../../src/main/electron/tray-status';

const ROOT = path.resolve(__dirname, '../..');
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
    expect(config).toMatchObject({ mac: { extendInfo: { LSUIElement: true } }, nsis: { perMachine: false, allowToChangeInstallationDirectory: true } });
  });

  it('has a release workflow that builds installers on Windows, macOS and Linux for a version tag', () => {
    const workflow = yaml.load(fs.readFileSync(path.join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
      on: { push: { tags: string[] } };
      jobs: { installers: { strategy: { matrix: { include: { os: string; target: string }[] } }; steps: { run?: string }[] } };
    };
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(workflow.jobs.installers.strategy.matrix.include.map((m) => m.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest']);
    expect(workflow.jobs.installers.steps.some((s) => s.run?.includes('electron-builder'))).toBe(true);
  });

  describe('electron-builder --dir with a stand-in Electron', () => {
    beforeAll(() => {
        work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-pack-'));
      // Electron cannot be downloaded here: a folder shaped like its Linux distribution stands in.
      const dist = path.join(work, 'electron-dist');
      fs.mkdirSync(path.join(dist, 'locales'), { recursive: true });
      fs.writeFileSync(path.join(dist, 'electron'), '#!/bin/sh\necho stand-in\n', { mode: 0o755 });
      for (const locale of ['en-US', 'zh-CN', 'de']) fs.writeFileSync(path.join(dist, 'locales', `${locale}.pak`), '');
      execFileSync(
        process.execPath,
        [path.join(ROOT, 'node_modules/electron-builder/cli.js'), '--dir', '--linux', '--x64', '--publish', 'never', `-c.electronDist=${dist}`, `-c.directories.output=${path.join(work, 'out')}`],
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
      expect(files).toContain('/out/cli/index.js');
      expect(files).toContain('/out/renderer/index.html');
      expect(files.some((f) => /^\/out\/renderer\/assets\/index-.*\.js$/.test(f))).toBe(true);
      expect(files.some((f) => f.startsWith('/node_modules/'))).toBe(false);
      expect(files.some((f) => f.endsWith('.map'))).toBe(false);
      expect(files.some((f) => f.startsWith('/src/') || f.startsWith('/test/'))).toBe(false);
    });

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
