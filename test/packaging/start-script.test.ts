import { spawn } from 'node:child_process';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { findElectron } from '../../scripts/electron-binary.mjs';

/** `npm start` where the Electron binary is missing and cannot be had: one line says what, and what to do. */
const ROOT = path.resolve(__dirname, '../..');

function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      // English unless a test says otherwise: the words follow LC_ALL, LC_MESSAGES and LANG, as the CLI's do.
      env: { ...process.env, LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8', ELECTRON_SKIP_BINARY_DOWNLOAD: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(findElectron(ROOT).binary !== undefined)('npm start without the Electron binary', () => {
  it('says in one line that the download failed, why, and how to run the headless app', async () => {
    // Nothing listens there: the download fails at once, as offline.
    const { code, stderr } = await start({ ELECTRON_MIRROR: 'http://127.0.0.1:9/' });
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^Cannot start the desktop app: the Electron binary could not be downloaded \(.*fetch failed/);
    // A command that works as it is in a clone (walkthrough 4: "--config FILE" left a person to guess FILE).
    expect(lines[0]).toMatch(/: npm run build && echo '\{\}' > xiaozhi-tray\.json && npx xiaozhi-tray run --ui$/);
  });

  it('says in one line that ELECTRON_SKIP_BINARY_DOWNLOAD kept it from being fetched', async () => {
    const { code, stdout, stderr } = await start({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n'), stderr).toEqual([
      expect.stringMatching(/^Cannot start the desktop app: .*ELECTRON_SKIP_BINARY_DOWNLOAD is set.*npx xiaozhi-tray run/),
    ]);
  });

  it('speaks Chinese under a Chinese locale: what is missing, how to get it through the mirror, and the headless way', async () => {
    const { code, stdout, stderr } = await start({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1', LANG: 'zh_CN.UTF-8' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^无法启动桌面版：/);
    expect(lines[0]).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    expect(lines[0]).toContain('ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/ npx install-electron');
    expect(lines[0]).toMatch(/：npm run build && echo '\{\}' > xiaozhi-tray\.json && npx xiaozhi-tray run --ui$/);
    expect(lines[0]).not.toContain('FILE');
    expect(lines[0]).not.toMatch(/Cannot start|is not installed|get it with/);
  });

  it('says the failed download in Chinese too, with its cause', async () => {
    const { code, stderr } = await start({ ELECTRON_MIRROR: 'http://127.0.0.1:9/', LC_ALL: 'zh_CN.UTF-8' });
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^无法启动桌面版：Electron 程序下载失败（.*fetch failed/);
  });
});
