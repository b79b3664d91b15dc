import fs from 'node:fs';
import path from 'node:path';

import yaml from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';

import { trayMenu } from '../../../src/main/electron/tray-status';
import { installKind } from '../../../src/main/electron/updates/electron-updater-backend';
import { classifyUpdateError } from '../../../src/main/electron/updates/update-errors';
import {
  channelFileName,
  feedPage,
  GITHUB_RELEASES,
  isSafeDownloadUrl,
  manualDownloadUrl,
  updateFeed,
} from '../../../src/main/electron/updates/update-feed';
import { translator } from '../../../src/shared/i18n/translate';
import { SettingsSchema } from '../../../src/shared/settings';
import type { UpdateStatus } from '../../../src/shared/updates';
import { type Harness, makeBridge } from '../../helpers/bridge-harness';

const ROOT = path.resolve(__dirname, '../../..');

describe('the update feed', () => {
  it('is the GitHub repository release.yml publishes to, unless a mirror is set by the user or the build', () => {
    const publish = (
      yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as {
        publish: { provider: string; owner: string; repo: string };
      }
    ).publish;
    expect({ owner: publish.owner, repo: publish.repo }).toEqual(GITHUB_RELEASES);
    expect(updateFeed({ enabled: true }, undefined)).toEqual({ provider: 'github', ...GITHUB_RELEASES });
    expect(updateFeed({ enabled: true }, 'https://mirror.example.cn/xt/')).toEqual({
      provider: 'generic',
      url: 'https://mirror.example.cn/xt',
    });
    expect(updateFeed({ enabled: true, mirrorUrl: 'https://my.example/u' }, 'https://mirror.example.cn/xt')).toEqual({
      provider: 'generic',
      url: 'https://my.example/u',
    });
    expect(feedPage({ provider: 'github', ...GITHUB_RELEASES }, '0.2.0')).toBe(
      'https://github.com/xiaozhi-tray/xiaozhi-tray/releases/tag/v0.2.0',
    );
  });

  it('sends .deb users to the package on a mirror, or to the release page', () => {
    const files = [{ url: 'xiaozhi-tray-0.2.0-linux-x86_64.AppImage' }, { url: 'xiaozhi-tray-0.2.0-linux-amd64.deb' }];
    expect(manualDownloadUrl({ provider: 'generic', url: 'https://m.example/xt' }, '0.2.0', files)).toBe(
      'https://m.example/xt/xiaozhi-tray-0.2.0-linux-amd64.deb',
    );
    expect(manualDownloadUrl({ provider: 'generic', url: 'https://m.example/xt' }, '0.2.0', [])).toBe('https://m.example/xt/');
    expect(manualDownloadUrl({ provider: 'github', ...GITHUB_RELEASES }, '0.2.0', files)).toBe(
      'https://github.com/xiaozhi-tray/xiaozhi-tray/releases/tag/v0.2.0',
    );
  });

  it('never offers a .deb link from the feed that is not https (http only on this machine)', () => {
    const feed = { provider: 'generic', url: 'https://m.example/xt' } as const;
    const page = 'https://m.example/xt/';
    for (const url of [
      'file:///etc/passwd.deb',
      'smb://host/share/x.deb',
      '//evil.example/x.deb',
      '\\\\evil\\share\\x.deb',
      'http://evil.example/x.deb',
      'javascript:alert(1)//.deb',
      'https://user:pw@evil.example/x.deb',
    ]) {
      expect(manualDownloadUrl(feed, '0.2.0', [{ url }]), url).toBe(page);
    }
    expect(manualDownloadUrl(feed, '0.2.0', [{ url: 'https://cdn.example/xt/x.deb' }])).toBe('https://cdn.example/xt/x.deb');
    expect(manualDownloadUrl({ provider: 'generic', url: 'http://127.0.0.1:8080/feed' }, '0.2.0', [{ url: 'x.deb' }])).toBe(
      'http://127.0.0.1:8080/feed/x.deb',
    );
    expect(isSafeDownloadUrl('https://github.com/x')).toBe(true);
    expect(isSafeDownloadUrl('http://localhost:1/x.deb')).toBe(true);
    for (const url of ['file:///x', 'smb://h/x', 'http://192.168.1.2/x.deb', 'not a url', 'ms-settings:'])
      expect(isSafeDownloadUrl(url), url).toBe(false);
  });

  it('names the channel file electron-updater reads on each platform', () => {
    expect(channelFileName('linux', 'x64')).toBe('latest-linux.yml');
    expect(channelFileName('linux', 'arm64')).toBe('latest-linux-arm64.yml');
    expect(channelFileName('darwin', 'arm64')).toBe('latest-mac.yml');
    expect(channelFileName('win32', 'x64')).toBe('latest.yml');
  });

  it('only accepts an https mirror (http only on this machine)', () => {
    expect(SettingsSchema.safeParse({ updates: { mirrorUrl: 'http://mirror.example.cn/' } }).success).toBe(false);
    expect(SettingsSchema.safeParse({ updates: { mirrorUrl: 'ftp://x' } }).success).toBe(false);
    expect(SettingsSchema.parse({ updates: { mirrorUrl: ' https://mirror.example.cn/xt ' } }).updates).toEqual({
      enabled: true,
      mirrorUrl: 'https://mirror.example.cn/xt',
    });
    expect(SettingsSchema.parse({ updates: { mirrorUrl: 'http://127.0.0.1:8080/' } }).updates.mirrorUrl).toBe('http://127.0.0.1:8080/');
    expect(SettingsSchema.parse({}).updates).toEqual({ enabled: true });
  });

  it('sorts failures into what a user can act on', () => {
    const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
    expect(classifyUpdateError(new Error('net::ERR_INTERNET_DISCONNECTED'))).toBe('offline');
    expect(classifyUpdateError(new Error('net::ERR_NAME_NOT_RESOLVED'))).toBe('offline');
    expect(classifyUpdateError(coded('sha512 checksum mismatch, expected a, got b', 'ERR_CHECKSUM_MISMATCH'))).toBe('integrity');
    expect(classifyUpdateError(coded('New version 0.2.0 is not signed by the application owner: x', 'ERR_UPDATER_INVALID_SIGNATURE'))).toBe(
      'integrity',
    );
    expect(classifyUpdateError(new Error('Code signature at URL file:///… did not pass validation'))).toBe('integrity');
    expect(classifyUpdateError(coded('Cannot find channel "latest.yml"', 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND'))).toBe('feed-missing');
    expect(classifyUpdateError(new Error('something odd'))).toBe('failed');
  });

  it('updates installers only: not a development run, not an unpacked folder; a .deb by hand', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.xt-resources-'));
    try {
      const base = { resourcesPath: dir, env: {} };
      expect(installKind({ ...base, isPackaged: false, platform: 'win32' })).toEqual({ updatable: false, manualInstall: false });
      expect(installKind({ ...base, isPackaged: true, platform: 'win32' })).toEqual({ updatable: true, manualInstall: false });
      expect(installKind({ ...base, isPackaged: true, platform: 'linux' })).toEqual({ updatable: false, manualInstall: false });
      expect(installKind({ ...base, isPackaged: true, platform: 'linux', env: { APPIMAGE: '/tmp/x.AppImage' } })).toEqual({
        updatable: true,
        manualInstall: false,
      });
      fs.writeFileSync(path.join(dir, 'package-type'), 'deb\n');
      expect(installKind({ ...base, isPackaged: true, platform: 'linux' })).toEqual({ updatable: true, manualInstall: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('updates in the tray menu', () => {
  const state = { running: true, endpoints: [], servers: [], catalog: { toolCount: 0, bytes: 0, pages: 0 } };
  const menu = (update: UpdateStatus | undefined, language: 'en' | 'zh-CN' = 'en') => trayMenu(state, false, translator(language), update);
  const base = { currentVersion: '0.1.0' };

  it('offers the action the status calls for', () => {
    expect(menu(undefined).some((i) => i.kind === 'action' && i.id === 'checkUpdates')).toBe(false);
    expect(menu({ ...base, state: 'unsupported' }).some((i) => i.kind === 'action' && i.id === 'checkUpdates')).toBe(false);
    expect(menu({ ...base, state: 'idle' })).toContainEqual({ kind: 'action', id: 'checkUpdates', label: 'Check for updates' });
    expect(menu({ ...base, state: 'up-to-date' })).toContainEqual({ kind: 'label', label: 'Xiaozhi Tray 0.1.0 is up to date' });
    expect(menu({ ...base, state: 'downloading', version: '0.2.0', percent: 42 })).toContainEqual({
      kind: 'label',
      label: 'Downloading version 0.2.0… 42%',
    });
    expect(menu({ ...base, state: 'ready', version: '0.2.0' })).toContainEqual({
      kind: 'action',
      id: 'installUpdate',
      label: 'Restart to update to 0.2.0',
    });
    expect(menu({ ...base, state: 'ready', version: '0.2.0' }, 'zh-CN')).toContainEqual({
      kind: 'action',
      id: 'installUpdate',
      label: '重启以更新到 0.2.0',
    });
    expect(menu({ ...base, state: 'manual', version: '0.2.0', downloadUrl: 'https://x' })).toContainEqual({
      kind: 'action',
      id: 'openUpdatePage',
      label: 'Download version 0.2.0…',
    });
    const failed = menu({ ...base, state: 'error', error: { code: 'offline', message: 'x', announce: false } });
    expect(failed).toContainEqual({ kind: 'label', label: 'Update check failed' });
    expect(failed).toContainEqual({ kind: 'action', id: 'checkUpdates', label: 'Check for updates' });
  });
});

describe('updates through the BridgeApi', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.bridge.stop();
    harness = undefined;
  });

  it('are "unsupported" headless, and the update settings change in part', async () => {
    harness = makeBridge({});
    const api = harness.bridge.api;
    expect(await api.getUpdateStatus()).toEqual({ state: 'unsupported', currentVersion: '0.1.0' });
    await expect(api.checkForUpdates()).rejects.toThrow(/desktop app only/);
    await expect(api.installUpdate()).rejects.toThrow(/desktop app only/);
    await api.updatePreferences({ updates: { mirrorUrl: 'https://mirror.example.cn/xt' } });
    expect((await api.getSettings()).updates).toEqual({ enabled: true, mirrorUrl: 'https://mirror.example.cn/xt' });
    await api.updatePreferences({ updates: { enabled: false } });
    expect(harness.store.load().updates).toEqual({ enabled: false, mirrorUrl: 'https://mirror.example.cn/xt' });
    await api.updatePreferences({ updates: { mirrorUrl: null } });
    expect(harness.store.load().updates).toEqual({ enabled: false });
    await expect(api.updatePreferences({ updates: { mirrorUrl: 'http://mirror.example.cn/' } })).rejects.toThrow(/https/);
  });
});
