import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { writeTextInPieces } from './text-in-pieces';

const TEMP_SUFFIX = '.tmp';
/** When this process started (ms): temporary files stamped earlier were not written by it. */
const PROCESS_STARTED = Date.now() - process.uptime() * 1000;
const tempPrefix = (file: string) => `.${path.basename(file)}.`;

/** Renames Windows refuses for a moment (antivirus or an indexer holding the file): EPERM, EBUSY, EACCES. */
const TRANSIENT = new Set(['EPERM', 'EBUSY', 'EACCES']);
/** Retries of such a rename, 20 ms, 40 ms… apart: about a second in all. */
const RENAME_RETRIES = 10;

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
  /** The final rename (tests put Windows' passing refusals here). */
  rename?: (from: string, to: string) => void;
}

/** A write under way: the temporary file is complete, the rename that puts it in place may still be retried. */
export interface AtomicWrite {
  /** The mode the file had when `private` made it 0600 (undefined when nothing changed). */
  tightened: number | undefined;
  /** True when the file is in place already (always, unless Windows refused the rename for a moment). */
  inPlace: boolean;
  /** Resolves once the file is in place (or the write was superseded); rejects when it never was, its temporary file removed. */
  done: Promise<void>;
  /** A later write of the same file supersedes this one: no more retries, its temporary file goes. */
  cancel(): void;
}

/**
 * Writes the whole text to a temporary sibling (fsynced, with the file's mode), then renames it over
 * the file: never a half-written config. A symlinked file is written through its link. This part is
 * synchronous, and so is every error it meets; only a rename that Windows refuses for a moment is
 * retried later, on timers, never by blocking the thread (Electron's main process, the headless
 * bridge's event loop) while it waits.
 */
export function startAtomicWrite(file: string, text: string | ((fd: number) => void), options: WriteOptions = {}): AtomicWrite {
  let target = file;
  try {
    target = fs.realpathSync(file);
  } catch {
    // a new file: write where asked
  }
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  // Unique even for two writes in one millisecond: a superseded write removes only its own file.
  const temp = path.join(dir, `${tempPrefix(target)}${process.pid}.${Date.now()}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
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
    // A function writes the content itself (copied from another file, never held as one string).
    if (typeof text === 'string') writeTextInPieces(handle, text);
    else text(handle);
    fs.fsyncSync(handle);
  } catch (error) {
    fs.closeSync(handle);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(handle);
  const rename = options.rename ?? fs.renameSync;
  const giveUp = (error: unknown) => {
    fs.rmSync(temp, { force: true });
    return error;
  };
  try {
    rename(temp, target);
    return { tightened, inPlace: true, done: Promise.resolve(), cancel: () => undefined };
  } catch (error) {
    if (!TRANSIENT.has((error as NodeJS.ErrnoException).code ?? '')) throw giveUp(error);
  }
  let cancelled = false;
  const retries = async () => {
    for (let attempt = 1; ; attempt++) {
      await delay(20 * attempt);
      if (cancelled) {
        giveUp(undefined);
        return;
      }
      try {
        rename(temp, target);
        return;
      } catch (error) {
        if (attempt >= RENAME_RETRIES || !TRANSIENT.has((error as NodeJS.ErrnoException).code ?? '')) throw giveUp(error);
      }
    }
  };
  return { tightened, inPlace: false, done: retries(), cancel: () => (cancelled = true) };
}

/** The same write, for callers that can wait for it: resolves once the file is in place, with the mode `private` took away. */
export async function writeFileAtomic(file: string, text: string, options: WriteOptions = {}): Promise<number | undefined> {
  const write = startAtomicWrite(file, text, options);
  await write.done;
  return write.tightened;
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
    // `pid.stamp.tmp`, or `pid.stamp.random.tmp` since writes got a random part.
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
