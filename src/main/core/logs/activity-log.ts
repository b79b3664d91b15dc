import fs from 'node:fs';
import path from 'node:path';

import { ACTIVITY_KEEP_MS, type ActivitySample, MAX_ACTIVITY_SAMPLES } from '../../../shared/activity';
import type { CallRecord } from '../../../shared/status';
import { CallOutcomeSchema } from '../../../shared/status';
import { startAtomicWrite } from '../system/atomic-write';
import { copyInPieces, readLinesInPieces, readTextInPieces } from '../system/text-in-pieces';

/** One sample a line, appended to: a call never rewrites the file. */
export const ACTIVITY_FILE_NAME = 'activity.jsonl';
/** The earlier version's file (`{ version: 1, samples }`), moved into the new one when first listed. */
export const OLD_ACTIVITY_FILE_NAME = 'activity.json';
/** Calls are written at most this often: a burst of calls is one append. */
const SAVE_DELAY_MS = 5000;
/** More calls than this waiting are written at once: what waits stays small. */
const MAX_PENDING = 500;
/** The file is rewritten within the bounds once it holds this many times the samples kept, once a minute at most… */
const COMPACT_OVER = 1.25;
const COMPACT_EVERY_MS = 60_000;
/**
 * …or at once past this many times: at a bench's 20,000 calls a second, a rewrite every 5,000 calls
 * (each reading 25,000 lines and copying 20,000) cost 6 % of the bridge's CPU.
 */
const COMPACT_AT_MOST = 3;
/** …or its oldest sample is this far past the keep period (looked at once an hour at most). */
const COMPACT_AGE_MS = ACTIVITY_KEEP_MS * COMPACT_OVER;
const AGE_CHECK_MS = 3600_000;
/**
 * What a list read is kept this long for the next one, then let go: the overview asks after every
 * call while the window is open; an idle bridge holds none of it.
 */
const READ_KEPT_MS = 30_000;
const NEWLINE = 0x0a;

/**
 * Reads the earlier version's activity file: samples that do not parse are skipped (a hand-edited
 * file loses only those), the rest kept within the bounds. A missing or unreadable file is none.
 */
export function readOldActivityFile(file: string, now = Date.now(), names = new Map<string, string>()): ActivitySample[] {
  let data: unknown;
  try {
    data = JSON.parse(readTextInPieces(file));
  } catch {
    return [];
  }
  const list = (data as { samples?: unknown } | null)?.samples;
  if (!Array.isArray(list)) return [];
  const samples: ActivitySample[] = [];
  // Only the newest MAX are looked at: a huge file cannot make this loop long.
  for (let i = Math.max(0, list.length - MAX_ACTIVITY_SAMPLES); i < list.length; i++) {
    const sample = readSample(list[i], names);
    if (sample && sample.time > now - ACTIVITY_KEEP_MS) samples.push(sample);
  }
  return samples;
}

/**
 * Every sample kept in an activity file and its earlier version beside it, oldest first, within the
 * bounds (what `xiaozhi-tray stats` reads; it moves nothing).
 */
export function readActivity(file: string, now = Date.now()): ActivitySample[] {
  return readBoth(file, oldFileBeside(file), now);
}

const oldFileBeside = (file: string) => path.join(path.dirname(file), OLD_ACTIVITY_FILE_NAME);

function readBoth(file: string, oldFile: string, now: number): ActivitySample[] {
  const names = new Map<string, string>();
  const old = readOldActivityFile(oldFile, now, names);
  const current = readLines(file, undefined, names)?.samples ?? [];
  return withinBounds(old.length === 0 ? current : byTime(old.concat(current)), now);
}

const OUTCOMES: ReadonlySet<unknown> = new Set(CallOutcomeSchema.options);

/**
 * One sample as `ActivitySampleSchema` reads it (its fields only), checked by hand: a week of calls
 * is 20,000 of them, and zod's parse of each made a peak heap that V8 then kept. Names repeat in
 * every sample: each is kept once (`names`), not once per sample as JSON.parse made them.
 */
function readSample(item: unknown, names: Map<string, string>): ActivitySample | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { time, tool, server, caller, outcome, durationMs } = item as Record<string, unknown>;
  if (typeof time !== 'number' || typeof durationMs !== 'number' || !OUTCOMES.has(outcome)) return undefined;
  if (typeof tool !== 'string' || typeof server !== 'string' || typeof caller !== 'string') return undefined;
  return {
    time,
    tool: once(names, tool),
    server: once(names, server),
    caller: once(names, caller),
    outcome: outcome as ActivitySample['outcome'],
    durationMs,
  };
}

function readLine(line: string, names: Map<string, string>): ActivitySample | undefined {
  try {
    return readSample(JSON.parse(line), names);
  } catch {
    return undefined;
  }
}

function once(names: Map<string, string>, name: string): string {
  const known = names.get(name);
  if (known !== undefined) return known;
  names.set(name, name);
  return name;
}

/** What was read of the file, up to where: the next read starts there while the file is the same one. */
interface ReadSoFar {
  /** The file (a compaction puts a new one in place). */
  identity: string;
  end: number;
  /** Oldest first. */
  samples: ActivitySample[];
  names: Map<string, string>;
}

/** The file's lines from where `from` stopped (from the start when it is another file); undefined when there is none. */
function readLines(file: string, from: ReadSoFar | undefined, names = new Map<string, string>()): ReadSoFar | undefined {
  return whileOpen(file, (fd) => {
    const stat = fs.fstatSync(fd);
    const identity = `${stat.ino}:${stat.birthtimeMs}`;
    const read = from?.identity === identity && from.end <= stat.size ? from : { identity, end: 0, samples: [], names };
    const { samples } = read;
    let sorted = true;
    read.end = readLinesInPieces(fd, read.end, (line) => {
      const sample = readLine(line, read.names);
      if (!sample) return;
      // Two copies of the app append their batches in turn: a batch may hold calls older than the other's last.
      if (sorted && samples.length > 0 && sample.time < (samples.at(-1)?.time ?? 0)) sorted = false;
      samples.push(sample);
    });
    if (!sorted) read.samples = byTime(samples);
    return read;
  });
}

/** What `use` makes of the file open for reading; undefined when it is missing or unreadable. */
function whileOpen<T>(file: string, use: (fd: number) => T): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    return use(fd);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Oldest first (a stable sort: samples of one time keep their order). */
const byTime = (samples: ActivitySample[]) => samples.sort((a, b) => a.time - b.time);

/** The newest MAX samples of a list (oldest first) that are within the keep period. */
function withinBounds(samples: ActivitySample[], now: number): ActivitySample[] {
  const first = firstWithin(samples, now);
  return first === 0 ? samples : samples.slice(first);
}

function firstWithin(samples: ActivitySample[], now: number): number {
  const oldest = now - ACTIVITY_KEEP_MS;
  let first = Math.max(0, samples.length - MAX_ACTIVITY_SAMPLES);
  while (first < samples.length && (samples[first]?.time ?? 0) <= oldest) first++;
  return first;
}

/**
 * A sample as JSON, its fields only, without the line's end: JSON.stringify of one small object
 * makes the string flat at once (a template of its parts made a string per part, joined later).
 */
const sampleJson = (s: ActivitySample) =>
  JSON.stringify({ time: s.time, tool: s.tool, server: s.server, caller: s.caller, outcome: s.outcome, durationMs: s.durationMs });

const asLine = (s: ActivitySample) => `${sampleJson(s)}\n`;

/** Characters of lines written at a time (at most 96 KB of UTF-8, see text-in-pieces.ts), whole lines only. */
const APPEND_CHARS = 32 * 1024;

/**
 * Appends the samples as lines, each write whole lines (two copies appending at once never cut each
 * other's lines). A last line a crash left without its newline gets one first: it loses only itself.
 * Returns the bytes written and the file's size after.
 */
function appendLines(file: string, samples: ActivitySample[]): { written: number; size: number } {
  const fd = fs.openSync(file, 'a+', 0o600);
  try {
    const stat = fs.fstatSync(fd);
    // The owner's alone, as the earlier file was written (private).
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) fs.fchmodSync(fd, 0o600);
    // Lines are encoded into one buffer as they are made (a batch's text made by `+=` and then encoded
    // cost each call its line twice more): under 128 KB, glibc's thresholds stay where they are.
    const buffer = Buffer.allocUnsafeSlow(APPEND_CHARS * 3);
    let used = 0;
    let written = 0;
    const writeOut = (bytes: Buffer, length: number) => {
      for (let done = 0; done < length;) done += fs.writeSync(fd, bytes, done, length - done);
      written += length;
    };
    if (stat.size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, stat.size - 1);
      if (last[0] !== NEWLINE) buffer[used++] = NEWLINE;
    }
    for (const sample of samples) {
      const json = sampleJson(sample);
      // Whole lines only: one that may not fit (3 bytes a UTF-16 unit at most, and its newline) starts the next write.
      if (used + json.length * 3 + 1 > buffer.length && used > 0) {
        writeOut(buffer, used);
        used = 0;
      }
      if (json.length * 3 + 1 > buffer.length) {
        const bytes = Buffer.from(`${json}\n`, 'utf8');
        writeOut(bytes, bytes.length);
      } else {
        used += buffer.write(json, used, 'utf8');
        buffer[used++] = NEWLINE;
      }
    }
    if (used > 0) writeOut(buffer, used);
    return { written, size: stat.size + written };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The byte where the lines to keep start: the newest MAX within the keep period, each line's time
 * read from its start as `asLine` writes it (a line that is no sample counts as old). Undefined
 * when the file cannot be read.
 */
function keptFrom(file: string, now: number): number | undefined {
  return whileOpen(file, (fd) => {
    const starts: number[] = [];
    const times: number[] = [];
    let start = 0;
    readLinesInPieces(fd, 0, (line, next) => {
      starts.push(start);
      times.push(lineTime(line));
      start = next;
    });
    const oldest = now - ACTIVITY_KEEP_MS;
    let first = Math.max(0, times.length - MAX_ACTIVITY_SAMPLES);
    while (first < times.length && (times[first] ?? 0) <= oldest) first++;
    return first < starts.length ? (starts[first] ?? start) : start;
  });
}

const TIME_PREFIX = '{"time":';

/** A line's time without parsing the line (0 when it does not start as `asLine` writes). */
function lineTime(line: string): number {
  if (!line.startsWith(TIME_PREFIX)) return 0;
  const time = Number(line.slice(TIME_PREFIX.length, line.indexOf(',', TIME_PREFIX.length)));
  return Number.isFinite(time) ? time : 0;
}

/** The time of the file's first sample (its oldest, but for another copy's late batch); undefined when unreadable. */
function firstTime(file: string): number | undefined {
  return whileOpen(file, (fd) => {
    const head = Buffer.alloc(1024);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    const newline = head.indexOf(NEWLINE);
    if (newline === -1 || newline >= n) return undefined;
    return readLine(head.toString('utf8', 0, newline), new Map())?.time;
  });
}

/**
 * Every call's time, tool, caller, outcome and duration, kept across restarts in the app's data
 * folder (a line per call, appended a few seconds after the calls; bounded by count and age), for
 * the activity page and `xiaozhi-tray stats`. Takes the history's records, already redacted; never
 * arguments or results. Nothing is read at start: only listing reads the file.
 */
export class ActivityLog {
  /** Calls not written yet (all of them when there is no file). */
  private pending: ActivitySample[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The file as the last list read it, for the next list (let go after READ_KEPT_MS). */
  private read: ReadSoFar | undefined;
  private forget: NodeJS.Timeout | undefined;
  /** When the file's oldest sample was last looked at. */
  private ageChecked = 0;
  /** When the file was last rewritten (by this copy of the app). */
  private compacted = Number.NEGATIVE_INFINITY;
  private readonly oldFile: string | undefined;

  constructor(
    /** Where it is kept; none: memory only. */
    private readonly file: string | undefined,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.oldFile = file ? oldFileBeside(file) : undefined;
  }

  static inFolder(dir: string | undefined, onError?: (message: string) => void): ActivityLog {
    return new ActivityLog(dir ? path.join(dir, ACTIVITY_FILE_NAME) : undefined, onError);
  }

  add(record: Pick<CallRecord, 'time' | 'originalTool' | 'server' | 'caller' | 'outcome' | 'durationMs'>): void {
    this.pending.push({
      time: record.time,
      tool: record.originalTool,
      server: record.server,
      caller: record.caller,
      outcome: record.outcome,
      durationMs: Math.round(record.durationMs * 10) / 10,
    });
    if (!this.file) {
      if (this.pending.length > MAX_ACTIVITY_SAMPLES * 1.1) this.pending = withinBounds(this.pending, Date.now());
      return;
    }
    if (this.pending.length === MAX_PENDING) {
      // A burst: written on the next turn, off the call that filled it.
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.save(), 0);
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.save(), SAVE_DELAY_MS);
    }
    this.timer.unref?.();
  }

  /** Oldest first, within the bounds: the file as it is now (another copy of the app may append to it too) and what is pending. */
  list(now = Date.now()): ActivitySample[] {
    if (!this.file) return withinBounds(this.pending, now).slice();
    try {
      if (this.oldFile && fs.existsSync(this.oldFile)) this.compact(now);
    } catch (error) {
      this.onError(error instanceof Error ? error.message : String(error));
    }
    const read = (this.read = readLines(this.file, this.read));
    if (read) {
      read.samples = withinBounds(read.samples, now);
      this.forget ??= setTimeout(() => (this.read = undefined), READ_KEPT_MS);
      this.forget.refresh().unref?.();
    }
    const saved = read?.samples ?? [];
    if (this.pending.length === 0) return saved.slice();
    const all = saved.concat(this.pending);
    // Pending calls are the newest, unless the file holds another copy's later batch.
    if (saved.length > 0 && (this.pending[0]?.time ?? 0) < (saved.at(-1)?.time ?? 0)) byTime(all);
    return withinBounds(all, now);
  }

  /** Writes what is pending now (on stop, and on quit), and lets go of what the last list read. */
  flush(): void {
    this.save();
    clearTimeout(this.forget);
    this.forget = undefined;
    this.read = undefined;
  }

  private save(now = Date.now()): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.file || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      // Often the first file of the app's data folder: made the owner's alone, as the state file and the sign-in tokens need it.
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const { written, size } = appendLines(this.file, batch);
      if (this.grownPastBounds(size, written / batch.length, now)) this.compact(now);
    } catch (error) {
      // Kept for the next write (a full disk frees up); the bounds still hold.
      this.pending = withinBounds(batch.concat(this.pending), now);
      this.onError(error instanceof Error ? error.message : String(error));
    }
  }

  /** Checked cheaply after each append: by the file's size, and once an hour by its first line's time. */
  private grownPastBounds(size: number, bytesPerLine: number, now: number): boolean {
    const lines = size / bytesPerLine;
    if (lines > MAX_ACTIVITY_SAMPLES * COMPACT_AT_MOST) return true;
    if (lines > MAX_ACTIVITY_SAMPLES * COMPACT_OVER && now - this.compacted >= COMPACT_EVERY_MS) return true;
    if (now - this.ageChecked < AGE_CHECK_MS || !this.file) return false;
    this.ageChecked = now;
    const first = firstTime(this.file);
    return first !== undefined && first < now - COMPACT_AGE_MS;
  }

  /**
   * Rewrites the file (atomically) with what is within the bounds, the earlier version's file moved
   * into it and removed. Rare: a few times a week. A batch another copy appends during these few
   * milliseconds is lost.
   */
  private compact(now: number): void {
    if (!this.file || !this.oldFile) return;
    const file = this.file;
    const oldFile = this.oldFile;
    const hadOld = fs.existsSync(oldFile);
    this.read = undefined;
    this.compacted = now;
    // Usually there is no earlier file: the lines kept are copied as bytes, never parsed into 20,000 objects and
    // one big string (that peak, a few times a week, stayed resident as the idle cost did).
    const kept = hadOld ? undefined : keptFrom(file, now);
    const write = kept
      ? startAtomicWrite(file, (target) => whileOpen(file, (source) => copyInPieces(source, kept, target)), { private: true })
      : startAtomicWrite(file, readBoth(file, oldFile, now).map(asLine).join(''), { private: true });
    const removeOld = () => hadOld && fs.rmSync(oldFile, { force: true });
    const { inPlace } = write;
    if (inPlace) removeOld();
    write.done.then(
      () => !inPlace && removeOld(),
      (error: unknown) => this.onError(String(error)),
    );
  }
}
