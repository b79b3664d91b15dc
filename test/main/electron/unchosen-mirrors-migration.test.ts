import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { loadConfigFile } from '../../../src/main/core/config/load-config';
import { FileSettingsStore } from '../../../src/main/core/config/settings-store';
import { defaultSettings } from '../../../src/shared/settings';
import { tempDirs } from '../../helpers/temp-dirs';

vi.mock('electron', async () => (await import('../../helpers/electron-mock')).electronModule);
const { fakeSafeStorage } = await import('../../helpers/electron-mock');
const { ElectronSettingsStore } = await import('../../../src/main/electron/electron-settings-store');
const { secretCodec } = await import('../../../src/main/electron/secret-codec');

const tempDir = tempDirs('xt-mirrors-');
const codec = () => secretCodec(fakeSafeStorage(false), 'darwin');
const open = (dir: string) => new ElectronSettingsStore(dir, codec());
const onDisk = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;

/** The app's store as the builds before "until chosen, the place decides" left it: `preset: 'default'` saved for everyone. */
function savedByEarlierBuild(mirrors: object): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ ...defaultSettings(), version: 2, mirrors }));
  return dir;
}

/** Issue 33: an upgrade kept the official sites in China, because the earlier build saved its default as if chosen. */
describe('download sources saved by an earlier build', () => {
  it('a saved "default" the user never chose becomes "not chosen", once; the place then decides', () => {
    const dir = savedByEarlierBuild({ preset: 'default' });
    const store = open(dir);
    expect(store.recovered).toBeUndefined();
    expect(store.load().mirrors).toEqual({});
    expect(onDisk(dir).mirrors).toEqual({});
    expect(onDisk(dir).version).toBe(3);
  });

  it('the mainland China mirrors and the user\'s own sources stay chosen, and so does "official" chosen after own sources were typed', () => {
    for (const mirrors of [
      { preset: 'china' },
      { preset: 'custom', npmRegistry: 'https://npm.example.com/' },
      // Own sources kept beside "official": the user went to "my own sources" and came back, a choice.
      { preset: 'default', pypiIndex: 'https://pypi.example.com/simple' },
    ])
      expect(open(savedByEarlierBuild(mirrors)).load().mirrors).toEqual(mirrors);
  });

  it('"official" chosen after the upgrade stays chosen across restarts', () => {
    const dir = savedByEarlierBuild({ preset: 'default' });
    const store = open(dir);
    store.save({ ...store.load(), mirrors: { preset: 'default' } });
    expect(open(dir).load().mirrors).toEqual({ preset: 'default' });
    expect(open(dir).load().mirrors).toEqual({ preset: 'default' });
  });

  it('a config file\'s "default" is the user\'s (its writer never wrote a default the file did not have), and stays', () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(file, JSON.stringify({ version: 2, mirrors: { preset: 'default' } }));
    const store = new FileSettingsStore(file, loadConfigFile(file, {}).settings);
    expect(store.load().mirrors).toEqual({ preset: 'default' });
    store.save({ ...store.load(), ui: { ...store.load().ui, theme: 'dark' } });
    expect(loadConfigFile(file, {}).settings.mirrors).toEqual({ preset: 'default' });
  });
});
