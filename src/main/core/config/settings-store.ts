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

/**
 * The endpoint `MCP_ENDPOINT` adds for one run: served, never written to the file (it would put the
 * token of the environment into a config the user may share).
 */
export const ENV_ENDPOINT_ID = 'env-mcp-endpoint';

const TEMP_SUFFIX = '.tmp';
const tempPrefix = (file: string) => `.${path.basename(file)}.`;

/** Blocks this thread briefly: saves are synchronous, and Windows' locks last milliseconds. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Writes the whole file to a temporary sibling, then renames: never a half-written config. A
 * symlinked config is written through its link. A rename refused for a moment (antivirus or an
 * indexer holding the file on Windows: EPERM, EBUSY, EACCES) is retried for about a second.
 */
export function writeFileAtomic(file: string, text: string): void {
  let target = file;
  try {
    target = fs.realpathSync(file);
  } catch {
    // a new file: write where asked
  }
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `${tempPrefix(target)}${process.pid}.${Date.now()}${TEMP_SUFFIX}`);
  const handle = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeFileSync(handle, text);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(temp, target);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt < 10 && (code === 'EPERM' || code === 'EBUSY' || code === 'EACCES')) {
        pause(20 * (attempt + 1));
        continue;
      }
      fs.rmSync(temp, { force: true });
      throw error;
    }
  }
}

/**
 * Temporary files of saves that were killed half-way (kill -9, power loss) hold the whole config,
 * secrets included: remove those whose writer is gone.
 */
export function removeOrphanedTempFiles(file: string): void {
  let target = file;
  try {
    target = fs.realpathSync(file);
  } catch {
    // no file yet
  }
  const prefix = tempPrefix(target);
  let names: string[];
  try {
    names = fs.readdirSync(path.dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (!Number.isInteger(pid) || isRunning(pid)) continue;
    fs.rmSync(path.join(path.dirname(target), name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys of `before` that `after` does not have, kept (our schema drops what it does not know). */
function keepUnknown(after: Record<string, unknown>, before: unknown): Record<string, unknown> {
  if (!isObject(before)) return after;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) if (!(key in after)) out[key] = value;
  return { ...out, ...after };
}

/** The settings as written: with what the file had that the schema does not know. */
function mergeUnknownKeys(settings: Settings, previous: unknown): Record<string, unknown> {
  const prev = isObject(previous) ? previous : {};
  const byKey = (list: unknown, key: string) =>
    new Map((Array.isArray(list) ? list : []).filter(isObject).map((item) => [item[key], item] as const));
  const endpoints = byKey(prev.endpoints, 'id');
  const servers = byKey(prev.servers, 'name');
  return keepUnknown(
    {
      ...settings,
      endpoints: settings.endpoints.map((e) => keepUnknown({ ...e }, endpoints.get(e.id))),
      servers: settings.servers.map((s) => keepUnknown({ ...s }, servers.get(s.name))),
    },
    prev,
  );
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
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
    removeOrphanedTempFiles(file);
  }

  load(): Settings {
    return structuredClone(this.settings);
  }

  save(settings: Settings): void {
    const valid = SettingsSchema.parse(settings);
    const written = { ...valid, endpoints: valid.endpoints.filter((e) => e.id !== ENV_ENDPOINT_ID) };
    writeFileAtomic(this.file, `${JSON.stringify(mergeUnknownKeys(written, readJson(this.file)), null, 2)}\n`);
    this.settings = structuredClone(valid);
  }
}
