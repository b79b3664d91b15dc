import { describe, expect, it } from 'vitest';

import { type HistoryLine, judge, parseHistory, regressionMessage } from '../../bench/gate';

const line = (quick: boolean, figures: Record<string, number>): HistoryLine => ({
  date: '2026-01-01T00:00:00Z',
  commit: 'abc1234',
  quick,
  load: { start: [1, 1, 1], end: [1, 1, 1] },
  machine: { cpus: 2, node: 'v20' },
  figures,
});

describe('the bench regression gate', () => {
  it('allows a figure up to the median of its last three recorded values of the same form, times its margin', () => {
    const history = [
      line(true, { cpu_vs_child: 9 }),
      line(true, { cpu_vs_child: 1.0 }),
      line(false, { cpu_vs_child: 5 }),
      line(true, { cpu_vs_child: 1.2 }),
      line(true, { cpu_vs_child: 1.1 }),
    ];
    const [ok] = judge(new Map([['cpu_vs_child', 1.4]]), history, true);
    expect(ok).toMatchObject({ reference: 1.1, regressed: false });
    expect(ok?.allowed).toBeCloseTo(1.1 * 1.3);
    const [bad] = judge(new Map([['cpu_vs_child', 1.5]]), history, true);
    expect(bad?.regressed).toBe(true);
  });

  it('adds a margin to figures that are differences, judges nothing unrecorded, and ignores figures without a margin', () => {
    const history = [line(true, { idle_rss_over_floor: 20, local_added: 2 })];
    const verdicts = judge(
      new Map([
        ['idle_rss_over_floor', 26],
        ['local_added', 9],
        ['cpu_vs_child', 3],
      ]),
      history,
      true,
    );
    expect(verdicts).toEqual([
      { key: 'idle_rss_over_floor', value: 26, reference: 20, allowed: 25, regressed: true },
      { key: 'cpu_vs_child', value: 3, regressed: false },
    ]);
  });

  it('names the figure, its value, the allowed value, the recorded one and the floor of the run', () => {
    const [verdict] = judge(new Map([['cpu_vs_child', 4.43]]), [line(true, { cpu_vs_child: 1.3 })], true);
    expect(regressionMessage(verdict!, 'bridge 140.0 µs per call, its child 31.6 µs')).toBe(
      "REGRESSION cpu_vs_child (bridge CPU per call ÷ its child server's): 4.43×, allowed ≤ 1.69× (recorded 1.30× × 1.3); " +
        'floor in this run: bridge 140.0 µs per call, its child 31.6 µs',
    );
  });

  it('skips history lines that are not JSON or have no figures, and says which', () => {
    const said: string[] = [];
    const lines = parseHistory(`${JSON.stringify(line(true, { cpu_vs_child: 1 }))}\nnot json\n{"quick":true}\n\n`, (s) => said.push(s));
    expect(lines).toHaveLength(1);
    expect(said).toEqual(['history.jsonl line 2: not JSON, skipped', 'history.jsonl line 3: no figures or quick flag, skipped']);
  });
});
