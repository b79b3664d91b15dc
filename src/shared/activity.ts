import { z } from 'zod';

import { lazySchema } from './lazy-schema';
import { CallOutcomeSchema } from './status';

/**
 * What the activity page and `xiaozhi-tray stats` read: one small sample per tools/call, kept across
 * restarts (no arguments, no results: nothing there to leak), and the summary both draw from them.
 */
export const ActivitySampleSchema = lazySchema(() =>
  z.object({
    time: z.number(),
    /** The tool as its server names it (exposed names can change with sets and prefixes). */
    tool: z.string(),
    server: z.string(),
    caller: z.string(),
    outcome: CallOutcomeSchema,
    durationMs: z.number(),
  }),
);
export type ActivitySample = z.infer<typeof ActivitySampleSchema>;

/** At most this many samples are kept (about 1.5 MB on disk); older ones go first. */
export const MAX_ACTIVITY_SAMPLES = 20_000;
/** Samples older than this are dropped: the page looks at a week at most. */
export const ACTIVITY_KEEP_MS = 8 * 24 * 3600_000;

export const ActivityRangeSchema = lazySchema(() => z.enum(['day', 'week']));
export type ActivityRange = z.infer<typeof ActivityRangeSchema>;

export interface ActivityBucket {
  /** The bucket's start (ms). */
  start: number;
  ok: number;
  failed: number;
  /** Answered as a success with an error message for text: neither counted ok nor failed. */
  errorText: number;
}

/** Every call of a bucket, whatever became of it. */
export const bucketCalls = (b: ActivityBucket): number => b.ok + b.failed + b.errorText;

export interface ToolActivity {
  tool: string;
  server: string;
  calls: number;
  failed: number;
  errorText: number;
  /** Calls that ran and so have a time (a call held for a confirmation that never came did not). */
  timed: number;
  p50: number;
  p95: number;
}

export interface ActivitySummary {
  range: ActivityRange;
  from: number;
  to: number;
  calls: number;
  failed: number;
  /** Calls answered with an error message as their text (see `ActivityBucket.errorText`). */
  errorText: number;
  /** Calls that ran (see `ToolActivity.timed`); the latency is theirs (ms), 0 without any. */
  timed: number;
  p50: number;
  p95: number;
  /** One bucket per hour (a day) or per six hours (a week), oldest first. */
  buckets: ActivityBucket[];
  bucketMs: number;
  /** Most called first. */
  tools: ToolActivity[];
  /** Tools served now that no call in the range reached: candidates to switch off. */
  neverCalled: { tool: string; server: string }[];
}

const HOUR = 3600_000;
export const RANGE_MS: Record<ActivityRange, number> = { day: 24 * HOUR, week: 7 * 24 * HOUR };
const BUCKET_MS: Record<ActivityRange, number> = { day: HOUR, week: 6 * HOUR };

/** The q-quantile (0..1) of sorted values, nearest rank; 0 for none. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

/** A call that did not work: the way Activity counts it (a tool's own error text is an answer, not a failure). */
export const failedOutcome = (s: Pick<ActivitySample, 'outcome'>) => s.outcome !== 'ok' && s.outcome !== 'errorText';

/** "Many recent calls failed": at least this many of the last hour's calls, and at least this share of them. */
const RECENT_FAILURES_MIN = 3;
const RECENT_FAILURES_SHARE = 1 / 3;

/**
 * The last hour's calls and failures when a good share of them failed (one failure is no alarm), else
 * undefined: what the overview says calmly, with a way to the failed calls.
 */
export function recentFailures(samples: readonly ActivitySample[], now: number): { calls: number; failed: number } | undefined {
  let calls = 0;
  let failed = 0;
  for (const s of samples) {
    if (s.time <= now - HOUR || s.time > now) continue;
    calls++;
    if (failedOutcome(s)) failed++;
  }
  return failed >= RECENT_FAILURES_MIN && failed >= calls * RECENT_FAILURES_SHARE ? { calls, failed } : undefined;
}

/**
 * The range ending at `now`: calls per bucket, per tool, failures and latency; `served` (the tools
 * served now, as server and tool) gives the ones never called. Samples outside the range are ignored.
 */
export function summarizeActivity(
  samples: readonly ActivitySample[],
  range: ActivityRange,
  now: number,
  served: readonly { tool: string; server: string }[] = [],
): ActivitySummary {
  const bucketMs = BUCKET_MS[range];
  // Buckets end on the hour, so the bars line up with the clock.
  const to = Math.ceil(now / HOUR) * HOUR;
  const from = to - RANGE_MS[range];
  const buckets: ActivityBucket[] = [];
  for (let start = from; start < to; start += bucketMs) buckets.push({ start, ok: 0, failed: 0, errorText: 0 });
  const perTool = new Map<
    string,
    { tool: string; server: string; calls: number; durations: number[]; failed: number; errorText: number }
  >();
  const durations: number[] = [];
  let calls = 0;
  let failed = 0;
  let errorText = 0;
  for (const s of samples) {
    if (s.time < from || s.time >= to) continue;
    const bucket = buckets[Math.floor((s.time - from) / bucketMs)] as ActivityBucket;
    const bad = failedOutcome(s);
    const worded = s.outcome === 'errorText';
    if (bad) {
      bucket.failed++;
      failed++;
    } else if (worded) {
      bucket.errorText++;
      errorText++;
    } else bucket.ok++;
    calls++;
    // A held call never ran: its 0 ms is no time.
    const ran = s.outcome !== 'held';
    if (ran) durations.push(s.durationMs);
    const key = `${s.server}\u0000${s.tool}`;
    const entry = perTool.get(key) ?? { tool: s.tool, server: s.server, calls: 0, durations: [], failed: 0, errorText: 0 };
    entry.calls++;
    if (ran) entry.durations.push(s.durationMs);
    if (bad) entry.failed++;
    if (worded) entry.errorText++;
    perTool.set(key, entry);
  }
  const byNumber = (a: number, b: number) => a - b;
  durations.sort(byNumber);
  const tools = [...perTool.values()]
    .map((e) => {
      e.durations.sort(byNumber);
      return {
        tool: e.tool,
        server: e.server,
        calls: e.calls,
        failed: e.failed,
        errorText: e.errorText,
        timed: e.durations.length,
        p50: quantile(e.durations, 0.5),
        p95: quantile(e.durations, 0.95),
      };
    })
    .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
  const neverCalled = served.filter((t) => !perTool.has(`${t.server}\u0000${t.tool}`));
  return {
    range,
    from,
    to,
    calls,
    failed,
    errorText,
    timed: durations.length,
    p50: quantile(durations, 0.5),
    p95: quantile(durations, 0.95),
    buckets,
    bucketMs,
    tools,
    neverCalled,
  };
}

const CSV_COLUMNS = ['time', 'tool', 'server', 'caller', 'outcome', 'durationMs'] as const;

/** A CSV cell: quoted when it holds a comma, a quote or a line break; a leading =+-@ is defused for spreadsheets. */
function csvCell(value: string | number): string {
  let text = typeof value === 'number' ? String(value) : value;
  if (/^[=+\-@]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The samples as CSV (ISO times, a header row) or JSON lines, oldest first. */
export function exportActivity(samples: readonly ActivitySample[], format: 'csv' | 'jsonl'): string {
  if (format === 'jsonl') return samples.map((s) => `${JSON.stringify({ ...s, time: new Date(s.time).toISOString() })}\n`).join('');
  const rows = samples.map((s) => CSV_COLUMNS.map((c) => csvCell(c === 'time' ? new Date(s.time).toISOString() : s[c])).join(','));
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
