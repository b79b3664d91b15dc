import { describe, expect, it } from 'vitest';

import {
  type Loss,
  NO_FAILURES,
  type RestartHistory,
  type RestartRules,
  restartStep,
} from '../../../../src/main/core/servers/restart-policy';

const rules: RestartRules = { restartBaseMs: 1000, restartMaxMs: 30_000, maxCrashes: 5, crashWindowMs: 60_000, givesUp: true };
/** The largest delay the jitter can draw, so that the backoff's ceiling shows. */
const loss = (now: number, kind: Loss['kind'] = 'crash', ranForMs = 0): Loss => ({ kind, ranForMs, now, draw: 0.999999 });

/** Feeds the policy `times` failures one second apart; returns every step. */
function failures(times: number, kind: Loss['kind'] = 'crash', given: RestartRules = rules) {
  let history: RestartHistory = NO_FAILURES;
  const steps = [];
  for (let i = 0; i < times; i++) {
    const step = restartStep(history, loss(1_000_000 + i * 1000, kind), given);
    steps.push(step);
    history = step.history;
  }
  return steps;
}

describe('the restart policy (no processes, no timers: the time is given)', () => {
  it('retries a crash after a delay that doubles up to the cap', () => {
    const delays = failures(4).map((step) => (step.next === 'retry' ? step.delayMs : -1));
    expect(delays).toEqual([999, 1999, 3999, 7999]);
    const capped = failures(9, 'crash', { ...rules, maxCrashes: 100 }).at(-1);
    expect(capped).toMatchObject({ next: 'retry', delayMs: 29_999 });
  });

  it('draws the delay with full jitter, never below a tenth of the base', () => {
    expect(restartStep(NO_FAILURES, { ...loss(0), draw: 0 }, rules)).toMatchObject({ next: 'retry', delayMs: 100 });
    expect(restartStep(NO_FAILURES, { ...loss(0), draw: 0.5 }, rules)).toMatchObject({ next: 'retry', delayMs: 500 });
  });

  it('gives up on a local program after maxCrashes crashes within the window, and says how many', () => {
    const steps = failures(5);
    expect(steps.slice(0, 4).every((step) => step.next === 'retry')).toBe(true);
    expect(steps[4]).toMatchObject({ next: 'fail', why: 'crashLoop', crashes: 5 });
  });

  it('keeps trying a remote server for ever (its network may come back)', () => {
    const steps = failures(20, 'crash', { ...rules, givesUp: false });
    expect(steps.every((step) => step.next === 'retry')).toBe(true);
  });

  it('forgets crashes older than the window', () => {
    let history: RestartHistory = NO_FAILURES;
    for (let i = 0; i < 4; i++) history = restartStep(history, loss(i * 1000), rules).history;
    const later = restartStep(history, loss(4000 + rules.crashWindowMs), rules);
    expect(later.next).toBe('retry');
    expect(later.history.crashTimes).toEqual([4000 + rules.crashWindowMs]);
  });

  it('starts the backoff and the count over for a server that ran longer than the window before it failed', () => {
    const before = failures(4).at(-1)!.history;
    const step = restartStep(before, loss(1_010_000, 'crash', rules.crashWindowMs + 1), rules);
    expect(step).toMatchObject({ next: 'retry', delayMs: 999 });
    expect(step.history.crashTimes).toHaveLength(1);
  });

  it('fails a permanent failure at once, whatever the history, and changes nothing in it', () => {
    const history = failures(2).at(-1)!.history;
    expect(restartStep(history, loss(5000, 'permanent'), rules)).toEqual({ next: 'fail', why: 'permanent', history });
  });

  it('retries a spawn refused for lack of resources (EMFILE) with backoff, never counting it as a crash', () => {
    const steps = failures(50, 'resources');
    expect(steps.every((step) => step.next === 'retry')).toBe(true);
    expect(steps.at(-1)?.history.crashTimes).toEqual([]);
    expect(steps.at(-1)).toMatchObject({ delayMs: 29_999 });
  });
});
