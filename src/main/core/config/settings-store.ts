import fs from 'node:fs';
import path from 'node:path';
import { SettingsSchema, type Settings } from '../../../shared/settings';

/** Where settings live: electron-store in the app, a file for the CLI, memory in tests. */
export interface SettingsStore {
  load(): Settings;
  save(settings: Settings): void;
  /** Set when changes cannot be saved: the config file belongs to another program. */
  readonly readOnly?: { file: string; format: string };
}

export class MemorySettingsStore implements SettingsStore {
  private settings: Settings;
  readonly readOnly?: { file: string; format: string };

  constructor(settings: Settings, readOnly?: { file: string; format: string }) {
    this.settings = SettingsSchema.parse(settings);
    if (readOnly !== undefined) this.readOnly = readOnly;
  }

  load(): Settings {
    return structuredClone(this.settings);
  }

  save(settings: Settings): void {
    this.settings = structuredClone(settings);
  }
}

/** Writes the whole file to a temporary sibling, then renames: never a half-written config. */
export function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const handle = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeFileSync(handle, text);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Our own settings format in a JSON file (the headless CLI's native config). */
export class FileSettingsStore implements SettingsStore {
  private settings: Settings;

  constructor(
    private readonly file: string,
    initial: Settings,
  ) {
    this.settings = initial;
  }

  load(): Settings {
    return structuredClone(this.settings);
  }

  save(settings: Settings): void {
    const valid = SettingsSchema.parse(settings);
    writeFileAtomic(this.file, `${JSON.stringify(valid, null, 2)}\n`);
    this.settings = structuredClone(valid);
  }
}
