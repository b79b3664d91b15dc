import fs from 'node:fs';
import path from 'node:path';
import { ACTIVITY_KEEP_MS, ActivitySampleSchema, MAX_ACTIVITY_SAMPLES, type ActivitySample } from '../../../shared/activity';
import type { CallRecord } from '../../../shared/status';
import { startAtomicWrite } from '../system/atomic-write';

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
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const list = (data as { samples?: unknown } | null)?.samples;
  if (!Array.isArray(list)) return [];
  const samples: ActivitySample[] = [];
  // Only the newest MAX are looked at: a huge file cannot make this loop long.
  for (const item of list.slice(-MAX_ACTIVITY_SAMPLES)) {
    const parsed = ActivitySampleSchema.safeParse(item);
    if (parsed.success && parsed.data.time > now - ACTIVITY_KEEP_MS) samples.push(parsed.data);
  }
  return samples;
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

  constructor(
    /** Where it is kept; none: memory only. */
    private readonly file: string | undefined,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.samples = file ? readActivityFile(file) : [];
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
    this.prune();
    try {
      // Often the first file of the app's data folder: made the owner's alone, as the state file and the sign-in tokens need it.
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      startAtomicWrite(this.file, JSON.stringify({ version: 1, samples: this.samples }), { private: true }).done.catch((error: unknown) =>
        this.onError(String(error)),
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
