import { describe, expect, it } from 'vitest';

import { type ActivitySample, recentFailures } from '../../src/shared/activity';

const now = Date.UTC(2026, 11, 7, 14, 0);
const call = (minutesAgo: number, outcome: ActivitySample['outcome']): ActivitySample => ({
  time: now - minutesAgo * 60_000,
  tool: 'edit_file',
  server: 'files',
  caller: 'speaker',
  outcome,
  durationMs: 10,
});

describe('many recent calls failed (issue 33: the overview stayed green at 5 failed of 12)', () => {
  it('is said when at least 3 and a third of the last hour’s calls failed', () => {
    const samples = [
      ...Array.from({ length: 7 }, (_, i) => call(i + 1, 'ok')),
      ...Array.from({ length: 5 }, (_, i) => call(i + 10, 'error')),
    ];
    expect(recentFailures(samples, now)).toEqual({ calls: 12, failed: 5 });
  });

  it('is not said for one or two failures, for a small share, or for failures older than an hour', () => {
    expect(recentFailures([call(1, 'error'), call(2, 'timeout'), call(3, 'ok')], now)).toBeUndefined();
    const many = [...Array.from({ length: 20 }, (_, i) => call(i + 1, 'ok')), call(30, 'error'), call(31, 'error'), call(32, 'error')];
    expect(recentFailures(many, now)).toBeUndefined();
    expect(recentFailures([call(61, 'error'), call(70, 'error'), call(90, 'error')], now)).toBeUndefined();
    // A tool's own error text is an answer, not a failure (as Activity counts).
    expect(recentFailures([call(1, 'errorText'), call(2, 'errorText'), call(3, 'errorText')], now)).toBeUndefined();
  });
});
