import fs from 'node:fs';
import path from 'node:path';
import { SettingsSchema, type Settings } from '../../../shared/settings';
import { configFileText } from './config-file-writer';
import { secretValues } from '../bridge-secrets';

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
/** When this process started (ms): temporary files stamped earlier were not written by it. */
const PROCESS_STARTED = Date.now() - process.uptime() * 1000;
const tempPrefix = (file: string) => `.${path.basename(file)}.`;

/** Blocks this thread briefly: saves are synchronous, and Windows' locks last milliseconds. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** What other users may do with a file: its mode bits for group and others (0 on Windows, where modes mean nothing). */
export function othersMode(file: string): number {
  if (process.platform === 'win32') return 0;
  try {
    return fs.statSync(file).mode & 0o077;
  } catch {
    return 0;
  }
}

/** A mode as `ls -l` users know it: 644. */
export const octalMode = (mode: number): string => (mode & 0o777).toString(8);

export interface WriteOptions {
  /**
   * The text holds secrets: the file is made the owner's alone (0600), whatever mode it had. Its
   * previous mode is returned when that took something away from others.
   */
  private?: boolean;
}

/**
 * Writes the whole file to a temporary sibling, then renames: never a half-written config. A
 * symlinked config is written through its link. A rename refused for a moment (antivirus or an
 * indexer holding the file on Windows: EPERM, EBUSY, EACCES) is retried for about a second.
 * Returns the mode the file had when `private` made it 0600 (undefined when nothing changed).
 */
export function writeFileAtomic(file: string, text: string, options: WriteOptions = {}): number | undefined {
  let target = file;
  try {
    target = fs.realpathSync(file);
  } catch {
    // a new file: write where asked
  }
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `${tempPrefix(target)}${process.pid}.${Date.now()}${TEMP_SUFFIX}`);
  // The file keeps its own permissions; a new one (it may hold secrets) is the owner's alone.
  let mode = 0o600;
  try {
    mode = fs.statSync(target).mode & 0o777;
  } catch {
    // a new file
  }
  const tightened = options.private && (mode & 0o077) !== 0 && process.platform !== 'win32' ? mode : undefined;
  if (tightened !== undefined) mode = 0o600;
  const handle = fs.openSync(temp, 'w', 0o600);
  try {
    if (process.platform !== 'win32') fs.fchmodSync(handle, mode);
    fs.writeFileSync(handle, text);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(temp, target);
      return tightened;
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
    const [pid, stamp] = name.slice(prefix.length).split('.').map(Number) as [number, number];
    if (!Number.isInteger(pid)) continue;
    // Our own pid is an earlier process's when the file is older than we are: in a container the
    // bridge is PID 1 at every start, so its killed save would otherwise be kept for ever.
    const earlierOfOurPid = pid === process.pid && stamp < PROCESS_STARTED;
    if (isRunning(pid) && !earlierOfOurPid) continue;
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

/** Our own settings format in a JSON file (the headless CLI's native config). */
export class FileSettingsStore implements SettingsStore {
  private settings: Settings;
  /** The file as we last read or wrote it: anything else there was changed by someone else. */
  private lastText: string | undefined;

  constructor(
    private readonly file: string,
    initial: Settings,
    private readonly options: {
      /** Told when the file was changed by another program since we read it (its text was kept in `backup`). */
      onExternalChange?: (backup: string) => void;
      /** Told when a save that holds secrets made the file 0600, with the mode that let others read or write it. */
      onMadePrivate?: (previousMode: number) => void;
    } = {},
  ) {
    this.settings = initial;
    removeOrphanedTempFiles(file);
    this.lastText = readText(file);
  }

  load(): Settings {
    return structuredClone(this.settings);
  }

  save(settings: Settings): void {
    const valid = SettingsSchema.parse(settings);
    const written = { ...valid, endpoints: valid.endpoints.filter((e) => e.id !== ENV_ENDPOINT_ID) };
    const current = readText(this.file);
    if (current !== undefined && this.lastText !== undefined && current !== this.lastText) {
      // Changed behind our back (an import from a terminal, an editor): keep that version whole.
      const backup = `${this.file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
      fs.writeFileSync(backup, current, { mode: 0o600 });
      this.options.onExternalChange?.(backup);
    }
    const text = configFileText(written, current);
    // Endpoint tokens, API keys, the local server's token: other users of this computer must not read them.
    const previous = writeFileAtomic(this.file, text, { private: secretValues(written).length > 0 });
    if (previous !== undefined) this.options.onMadePrivate?.(previous);
    this.lastText = text;
    this.settings = structuredClone(valid);
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
