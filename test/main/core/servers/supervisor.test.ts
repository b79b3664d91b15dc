import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Logger } from '../../../../src/main/core/logs/log-book';
import type { Failure } from '../../../../src/main/core/problems/server-problems';
import { Attempt } from '../../../../src/main/core/servers/attempt';
import { defaultSupervision } from '../../../../src/main/core/servers/supervision';
import { type AttemptState, Supervisor } from '../../../../src/main/core/servers/supervisor';
import { problem } from '../../../../src/shared/problem';

// The lifecycle every server kind shares, in memory: fake timers, a run that does what each test says.

const crash: Failure = { problem: problem('server.closed') };
const refused: Failure = { problem: problem('server.authRefused', { status: 401 }) };

function logger(lines: string[]): Logger {
  const add = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { debug: add('debug'), info: add('info'), warn: add('warn'), error: add('error') };
}

/** A supervisor whose attempts are recorded and left to the test to settle. */
function supervised(options: { maxCrashes?: number } = {}) {
  const lines: string[] = [];
  const runs: { attempt: Attempt; state: AttemptState }[] = [];
  const attempts: Promise<void>[] = [];
  const states: string[] = [];
  const life: Supervisor = new Supervisor({
    log: logger(lines),
    supervision: {
      ...defaultSupervision,
      restartBaseMs: 100,
      restartMaxMs: 1000,
      maxCrashes: options.maxCrashes ?? 3,
      crashWindowMs: 60_000,
    },
    run: async (attempt, state) => {
      runs.push({ attempt, state });
      life.setState(state);
    },
    onStatus: () => states.push(life.state),
    onAttempt: (attempt) => void attempts.push(attempt),
  });
  return { life, lines, runs, attempts, states };
}

beforeEach(() => {
  vi.useFakeTimers();
  // The largest delay the jitter can draw: the backoff's ceiling, less a millisecond.
  vi.spyOn(Math, 'random').mockReturnValue(0.999999);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('an attempt (what one try to run a server owns)', () => {
  it('silences its callbacks and clears its timers when it ends, and holds nothing after', () => {
    const attempt = new Attempt();
    const heard: string[] = [];
    const late = attempt.guard((what: string) => void heard.push(what));
    attempt.timeout(() => heard.push('timer'), 50);
    attempt.interval(() => heard.push('tick'), 20);
    late('before');
    expect(attempt.held).toBe(2);
    attempt.end();
    late('after');
    vi.advanceTimersByTime(1000);
    expect(heard).toEqual(['before']);
    expect(attempt.held).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('forgets a timer once it fired, and disposes what it is handed after it ended at once', () => {
    const attempt = new Attempt();
    attempt.timeout(() => undefined, 10);
    vi.advanceTimersByTime(10);
    expect(attempt.held).toBe(0);
    attempt.end();
    const disposed = vi.fn();
    attempt.own(disposed);
    expect(disposed).toHaveBeenCalledOnce();
    attempt.timeout(() => undefined, 10);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the supervisor (one lifecycle for every kind of server)', () => {
  it('restarts after a crash with a delay that doubles, each restart a new attempt that ends the old one', async () => {
    const { life, lines, runs, attempts } = supervised({ maxCrashes: 10 });
    await life.start();
    expect(runs.map((r) => r.state)).toEqual(['starting']);
    for (const delay of [100, 200, 400]) {
      life.decide(crash, 'crash', { givesUp: true });
      expect(life.state).toBe('restarting');
      vi.advanceTimersByTime(delay - 2);
      expect(runs).toHaveLength(1 + attempts.length);
      vi.advanceTimersByTime(1);
      expect(runs.at(-2)!.attempt.live).toBe(false);
      expect(runs.at(-1)).toMatchObject({ state: 'restarting', attempt: life.attempt });
    }
    expect(life.restarts).toBe(3);
    expect(attempts).toHaveLength(3);
    expect(lines.filter((l) => l.includes('restarting in'))).toEqual([
      'warn the connection closed; restarting in 0.1 s',
      'warn the connection closed; restarting in 0.2 s',
      'warn the connection closed; restarting in 0.4 s',
    ]);
  });

  it('stays failed on a failure no retry can fix, with no timer left', async () => {
    const { life, lines, runs } = supervised();
    await life.start();
    life.decide(refused, 'permanent', { givesUp: false });
    expect(life.state).toBe('failed');
    expect(life.lastFailure).toBe(refused);
    expect(vi.getTimerCount()).toBe(0);
    expect(lines.at(-1)).toMatch(/^error .*HTTP 401.*; not retrying until it is restarted$/);
    expect(runs).toHaveLength(1);
  });

  it('gives up on a crash loop when it gives up, and is tried for ever when not', async () => {
    const local = supervised({ maxCrashes: 3 });
    await local.life.start();
    for (let i = 0; i < 3; i++) {
      local.life.decide(crash, 'crash', { givesUp: true, said: { lastLine: 'Error: boom' } });
      vi.runOnlyPendingTimers();
    }
    expect(local.life.state).toBe('failed');
    expect(local.lines.at(-1)).toMatch(/^error failed 3 times within 60 s; giving up until restarted\. .*Error: boom/);

    const remote = supervised({ maxCrashes: 3 });
    await remote.life.start();
    for (let i = 0; i < 5; i++) {
      remote.life.decide(crash, 'crash', { givesUp: false });
      vi.runOnlyPendingTimers();
    }
    expect(remote.life.state).toBe('restarting');
    expect(remote.runs).toHaveLength(6);
  });

  it('a stop during the wait for a restart: the restart never comes, and nothing is left', async () => {
    const { life, runs } = supervised();
    await life.start();
    life.decide(crash, 'crash', { givesUp: true });
    expect(vi.getTimerCount()).toBe(1);
    life.end();
    life.setState('stopped');
    vi.advanceTimersByTime(60_000);
    expect(runs).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(runs.every((r) => !r.attempt.live && r.attempt.held === 0)).toBe(true);
  });

  it('a late callback of an attempt that ended does nothing, even after a new one began', async () => {
    const { life, runs } = supervised();
    await life.start();
    const first = runs[0]!.attempt;
    const onclose = first.guard(() => life.decide(crash, 'crash', { givesUp: true }));
    await life.retryNow();
    onclose();
    expect(life.state).toBe('restarting');
    expect(life.restarts).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts failures from the last start by the user; a service that came up forgets them, a process that ran keeps them', async () => {
    const { life } = supervised({ maxCrashes: 10 });
    await life.start();
    life.decide(crash, 'crash', { givesUp: true });
    vi.runOnlyPendingTimers();
    life.decide(crash, 'crash', { givesUp: true });
    life.end();
    life.setState('failed');
    await life.start();
    expect(life.lastFailure).toBeUndefined();
    life.decide(crash, 'crash', { givesUp: true });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(99);
    expect(life.attempt.held).toBe(0);

    life.up({ forgetFailures: false });
    life.decide(crash, 'crash', { givesUp: true }, life.ranFor());
    expect(life.attempt.held).toBe(1);
    vi.advanceTimersByTime(198);
    expect(life.attempt.held).toBe(1);
    vi.advanceTimersByTime(1);
    life.up({ forgetFailures: true });
    life.decide(crash, 'crash', { givesUp: true });
    vi.advanceTimersByTime(99);
    expect(life.attempt.held).toBe(0);
  });

  it('says each change of state once, and reaching or leaving running once more', async () => {
    const availability: string[] = [];
    const states: string[] = [];
    const life: Supervisor = new Supervisor({
      log: logger([]),
      supervision: defaultSupervision,
      run: async (_attempt, state) => life.setState(state),
      onStatus: () => states.push(life.state),
      onAvailability: () => availability.push(life.state),
    });
    await life.start();
    life.up({ forgetFailures: false });
    life.setState('running');
    life.end();
    life.setState('stopped');
    expect(states).toEqual(['starting', 'running', 'stopped']);
    expect(availability).toEqual(['running', 'stopped']);
  });
});
