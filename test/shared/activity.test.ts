import { describe, expect, it } from 'vitest';

import { type ActivitySample, exportActivity, quantile, summarizeActivity } from '../../src/shared/activity';

const HOUR = 3600_000;
const now = Date.UTC(2026, 0, 10, 12, 30);
const sample = (hoursAgo: number, tool: string, durationMs: number, outcome: ActivitySample['outcome'] = 'ok'): ActivitySample => ({
  time: now - hoursAgo * HOUR,
  tool,
  server: 'fixture',
  caller: '家里',
  outcome,
  durationMs,
});

describe('the activity summary', () => {
  const samples = [
    sample(0.1, 'weather', 100),
    sample(0.2, 'weather', 300),
    sample(2, 'weather', 200, 'error'),
    sample(3, 'echo', 10, 'timeout'),
    sample(30, 'echo', 50),
    sample(24 * 9, 'echo', 50),
  ];

  it('counts a day per hour: calls, failures, latency, per tool, and the tools never called', () => {
    const day = summarizeActivity(samples, 'day', now, [
      { tool: 'weather', server: 'fixture' },
      { tool: 'echo', server: 'fixture' },
      { tool: 'unused', server: 'fixture' },
    ]);
    expect(day.buckets).toHaveLength(24);
    expect(day.calls).toBe(4);
    expect(day.failed).toBe(2);
    expect(day.buckets.at(-1)).toMatchObject({ ok: 2, failed: 0 });
    expect(day.tools[0]).toMatchObject({ tool: 'weather', calls: 3, failed: 1, p50: 200, p95: 300 });
    expect(day.neverCalled).toEqual([{ tool: 'unused', server: 'fixture' }]);
  });

  it('counts an answer that was an error message apart: neither a success nor a failure', () => {
    const day = summarizeActivity([sample(0.1, 'weather', 100), sample(0.2, 'weather', 100, 'errorText')], 'day', now);
    expect(day).toMatchObject({ calls: 2, failed: 0, errorText: 1 });
    expect(day.buckets.at(-1)).toMatchObject({ ok: 1, failed: 0, errorText: 1 });
    expect(day.tools[0]).toMatchObject({ tool: 'weather', calls: 2, failed: 0, errorText: 1 });
  });

  it('times only calls that ran: one held for a confirmation never ran and is no "0 ms" (the Activity page showed 0.00 ms)', () => {
    const day = summarizeActivity(
      [sample(0.1, 'weather', 100), sample(0.2, 'weather', 0, 'held'), sample(0.3, 'weather', 0, 'held'), sample(0.4, 'delete', 0, 'held')],
      'day',
      now,
    );
    expect(day).toMatchObject({ calls: 4, failed: 3, timed: 1, p50: 100 });
    expect(day.tools.find((t) => t.tool === 'weather')).toMatchObject({ calls: 3, timed: 1, p50: 100 });
    expect(day.tools.find((t) => t.tool === 'delete')).toMatchObject({ calls: 1, timed: 0 });
  });

  it('counts a week in six-hour bars and leaves out what is older', () => {
    const week = summarizeActivity(samples, 'week', now);
    expect(week.buckets).toHaveLength(28);
    expect(week.calls).toBe(5);
  });

  it('takes the nearest-rank quantile', () => {
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([], 0.5)).toBe(0);
  });

  it('exports CSV a spreadsheet opens safely, and JSON lines', () => {
    const csv = exportActivity([{ ...sample(1, '=cmd', 5), caller: 'a, "b"' }], 'csv');
    expect(csv.split('\r\n')[0]).toBe('time,tool,server,caller,outcome,durationMs');
    expect(csv).toContain(`'=cmd,fixture,"a, ""b""",ok,5`);
    const line = JSON.parse(exportActivity([sample(1, 'echo', 5)], 'jsonl').trim()) as { time: string };
    expect(line.time).toBe('2026-01-10T11:30:00.000Z');
  });
});
