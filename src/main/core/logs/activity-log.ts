import fs from 'node:fs';
import path from 'node:path';

import { ACTIVITY_KEEP_MS, type ActivitySample, MAX_ACTIVITY_SAMPLES } from '../../../shared/activity';
import type { CallRecord } from '../../../shared/status';
import { CallOutcomeSchema } from '../../../shared/status';
import { startAtomicWrite } from '../system/atomic-write';
import { readTextInPieces } from '../system/text-in-pieces';

export const ACTIVITY_FILE_NAME = 'activity.json';
/** Calls are written at most this often: a burst of calls is one write. */
const SAVE_DELAY_MS = 5000;

/**
 * Reads an activity file: samples that do not parse are skipped (a hand-edited or older file loses
 * only those), the rest kept within the bounds. A missing or unreadable file is no activity.
 */
export function readActivityFile(file: string, now = Date.now()): ActivitySample[] {
  let data: unknown;
  try {
    data = JSON.parse(readTextInPieces(file));
  } catch {
    return [];
  }
  const list = (data as { samples?: unknown } | null)?.samples;
  if (!Array.isArray(list)) return [];
  const samples: ActivitySample[] = [];
  const names = new Map<string, string>();
  // Only the newest MAX are looked at: a huge file cannot make this loop long.
  for (let i = Math.max(0, list.length - MAX_ACTIVITY_SAMPLES); i < list.length; i++) {
    const sample = readSample(list[i], names);
    if (sample && sample.time > now - ACTIVITY_KEEP_MS) samples.push(sample);
  }
  return samples;
}

const OUTCOMES: ReadonlySet<unknown> = new Set(CallOutcomeSchema.options);

/**
 * One sample as `ActivitySampleSchema` reads it (its fields only), checked by hand: a week of calls
 * is 20,000 of them, and zod's parse of each made the start's peak heap, which V8 then kept. Names
 * repeat in every sample: each is kept once (`names`), not once per sample as JSON.parse made them.
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

function once(names: Map<string, string>, name: string): string {
  const known = names.get(name);
  if (known !== undefined) return known;
  names.set(name, name);
  return name;
}

/**
 * Every call's time, tool, caller, outcome and duration, kept across restarts in the app's data
 * folder (bounded by count and age, written atomically, at most every few seconds), for the
 * activity page and `xiaozhi-tray stats`. Takes the history's records, already redacted; never
 * arguments or results.
 */
export class ActivityLog {
  private samples: ActivitySample[];
  private timer: NodeJS.Timeout | undefined;
  /** The file as this copy last read or wrote it: another copy sharing the data folder changes it. */
  private seen: string | undefined;

  constructor(
    /** Where it is kept; none: memory only. */
    private readonly file: string | undefined,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.samples = file ? readActivityFile(file) : [];
    this.seen = file ? fileSignature(file) : undefined;
  }

  static inFolder(dir: string | undefined, onError?: (message: string) => void): ActivityLog {
    return new ActivityLog(dir ? path.join(dir, ACTIVITY_FILE_NAME) : undefined, onError);
  }

  add(record: Pick<CallRecord, 'time' | 'originalTool' | 'server' | 'caller' | 'outcome' | 'durationMs'>): void {
    this.samples.push({
      time: record.time,
      tool: record.originalTool,
      server: record.server,
      caller: record.caller,
      outcome: record.outcome,
      durationMs: Math.round(record.durationMs * 10) / 10,
    });
    if (this.samples.length > MAX_ACTIVITY_SAMPLES * 1.1) this.prune();
    if (this.file && !this.timer) {
      this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
      this.timer.unref?.();
    }
  }

  /** Oldest first, within the bounds. */
  list(now = Date.now()): ActivitySample[] {
    this.prune(now);
    return this.samples.slice();
  }

  /** Writes what is pending now (on stop, and on quit). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.file) return;
    // Another copy of the app with the same data folder wrote since: keep its calls too (a stat per write; read only then).
    if (fileSignature(this.file) !== this.seen) this.samples = mergeSamples(this.samples, readActivityFile(this.file));
    this.prune();
    try {
      // Often the first file of the app's data folder: made the owner's alone, as the state file and the sign-in tokens need it.
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const file = this.file;
      const write = startAtomicWrite(file, JSON.stringify({ version: 1, samples: this.samples }), { private: true });
      if (write.inPlace) this.seen = fileSignature(file);
      write.done.then(
        () => (this.seen = fileSignature(file)),
        (error: unknown) => this.onError(String(error)),
      );
    } catch (error) {
      this.onError(error instanceof Error ? error.message : String(error));
    }
  }

  private prune(now = Date.now()): void {
    const oldest = now - ACTIVITY_KEEP_MS;
    let first = Math.max(0, this.samples.length - MAX_ACTIVITY_SAMPLES);
    while (first < this.samples.length && (this.samples[first]?.time ?? 0) <= oldest) first++;
    if (first > 0) this.samples = this.samples.slice(first);
  }
}

/** Which version of a file is there: each atomic write puts a new file (inode) in place. */
function fileSignature(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
  } catch {
    return undefined;
  }
}

const sampleKey = (s: ActivitySample) => `${s.time}\0${s.server}\0${s.tool}\0${s.caller}\0${s.outcome}\0${s.durationMs}`;

/** Both lists' samples, each once, oldest first. */
function mergeSamples(ours: ActivitySample[], theirs: ActivitySample[]): ActivitySample[] {
  const known = new Set(ours.map(sampleKey));
  const added = theirs.filter((s) => !known.has(sampleKey(s)));
  return added.length === 0 ? ours : [...ours, ...added].sort((a, b) => a.time - b.time);
}
