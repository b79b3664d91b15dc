import fs from 'node:fs';
import path from 'node:path';

import Store from 'electron-store';

import { defaultSettings, type Settings } from '../../shared/settings';
import { migrateSettings } from '../core/config/migrations';
import type { SettingsStore } from '../core/config/settings-store';
import { mapSettingsSecrets, type SecretCodec } from './secret-codec';

const NAME = 'settings';

/**
 * Settings in electron-store (atomic writes), secrets encrypted by the codec. A store that cannot be
 * read or migrated is moved aside, never silently discarded, and `notice` says where it went.
 */
export class ElectronSettingsStore implements SettingsStore {
  /** Set when stored settings could not be read and were moved aside. */
  readonly recovered?: { movedTo: string; reason: string };
  private readonly store: Store<Record<string, unknown>>;
  private settings: Settings;

  constructor(
    dir: string,
    private readonly codec: SecretCodec,
  ) {
    const file = path.join(dir, `${NAME}.json`);
    let recovered: { movedTo: string; reason: string } | undefined;
    const moveAside = (why: string) => {
      const aside = path.join(dir, `${NAME}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
      fs.renameSync(file, aside);
      recovered = { movedTo: aside, reason: why };
    };
    if (fs.existsSync(file)) {
      try {
        JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (error) {
        moveAside(`invalid JSON: ${(error as Error).message}`);
      }
    }
    // The user's alone, on every write: on Linux without a keyring the secrets in it are plain text.
    this.store = new Store<Record<string, unknown>>({ name: NAME, cwd: dir, clearInvalidConfig: false, configFileMode: 0o600 });
    let settings: Settings;
    try {
      const stored = this.store.store;
      settings =
        Object.keys(stored).length === 0 ? defaultSettings() : migrateSettings(mapSettingsSecretsRaw(stored, (v) => codec.decode(v)));
    } catch (error) {
      moveAside((error as Error).message);
      this.store.clear();
      settings = defaultSettings();
    }
    this.settings = settings;
    if (recovered !== undefined) this.recovered = recovered;
    this.save(settings);
  }

  load(): Settings {
    return structuredClone(this.settings);
  }

  save(settings: Settings): void {
    this.store.store = mapSettingsSecrets(settings, (v) => this.codec.encode(v)) as unknown as Record<string, unknown>;
    this.settings = structuredClone(settings);
  }
}

/** Decodes secrets before validation (the shapes are checked by the migration afterwards). */
function mapSettingsSecretsRaw(stored: Record<string, unknown>, fn: (v: string) => string): unknown {
  try {
    return mapSettingsSecrets(stored as unknown as Settings, fn);
  } catch {
    return stored;
  }
}
