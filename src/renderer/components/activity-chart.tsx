import { useEffect, useRef, useState } from 'react';

import { type ActivityBucket, bucketCalls } from '../../shared/activity';
import type { Language } from '../../shared/i18n/translate';

import 'uplot/dist/uPlot.min.css';

/**
 * The room an x-axis label needs, in CSS pixels, from one label's text: uPlot spaces ticks by a fixed
 * minimum (50 px) and draws on a canvas that never wraps, so "12:00 PM" labels ran into each other at
 * 800 px. Wide (CJK) characters count double; the rest as the axis font's average digit.
 */
export function axisLabelSpace(sample: string): number {
  let width = 0;
  for (const ch of sample) width += /[\u1100-\uffdc]/.test(ch) ? 12 : 7;
  return width + 24;
}

/** The axis's labels, a repeat of the one before left blank: a week's ticks fall every few hours, its labels are dates. */
export function tickLabels(ticks: number[], language: string, format: Intl.DateTimeFormatOptions): string[] {
  let before = '';
  return ticks.map((t) => {
    const label = new Date(t * 1000).toLocaleString(language, format);
    if (label === before) return '';
    before = label;
    return label;
  });
}

/**
 * Calls per bucket as bars (all calls, and the failed ones over them in red), drawn by uPlot. The
 * library is loaded when the chart first shows: most sessions never open the activity page.
 */
export function ActivityChart(props: {
  buckets: ActivityBucket[];
  bucketMs: number;
  language: Language;
  /** `range`: what the legend names while no bar is pointed at, when it shows the totals. */
  labels: { time: string; calls: string; failed: string; range: string };
  /** Said to screen readers: the chart's numbers in words. */
  description: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const { buckets, bucketMs, language, labels } = props;

  useEffect(() => {
    const element = host.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(element.clientWidth)));
    observer.observe(element);
    setWidth(Math.floor(element.clientWidth));
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = host.current;
    if (!element || width <= 0) return;
    let plot: { destroy(): void } | undefined;
    let cancelled = false;
    void import('uplot').then(({ default: uPlot }) => {
      if (cancelled) return;
      const style = getComputedStyle(document.documentElement);
      const color = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
      const text = color('--muted', '#888');
      const grid = color('--border', '#ddd');
      // x: each bucket's middle, in seconds (uPlot's time unit).
      const xs = buckets.map((b) => (b.start + bucketMs / 2) / 1000);
      // An empty bucket draws nothing (a zero-height bar would still draw its outline).
      const all = buckets.map((b) => bucketCalls(b) || null);
      const failed = buckets.map((b) => b.failed || null);
      const bars = uPlot.paths.bars?.({ size: [0.8, 40], align: 0 });
      const hourly = bucketMs <= 3600_000;
      const totals = { calls: buckets.reduce((n, b) => n + bucketCalls(b), 0), failed: buckets.reduce((n, b) => n + b.failed, 0) };
      const count = (n: number) => n.toLocaleString(language);
      const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
      const tickFormat: Intl.DateTimeFormatOptions = hourly ? { hour: '2-digit', minute: '2-digit' } : { month: 'numeric', day: 'numeric' };
      // The widest label this language writes for the axis: late evening, or the end of December.
      const widest = new Date(2026, 11, 28, 22, 0).toLocaleString(language, tickFormat);
      plot = new uPlot(
        {
          width,
          height: 180,
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
          axes: [
            {
              ...axis,
              space: axisLabelSpace(widest),
              values: (_u, ticks) => tickLabels(ticks, language, tickFormat),
            },
            { ...axis, size: 40, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) },
          ],
          series: [
            {
              label: labels.time,
              // No bar pointed at (uPlot would show "--"): the range, beside its totals.
              value: (_u, v, _s, idx) =>
                idx == null || v == null
                  ? labels.range
                  : new Date(v * 1000).toLocaleString(language, { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
            },
            {
              label: labels.calls,
              value: (_u, v, _s, idx) => count(idx == null ? totals.calls : (v ?? 0)),
              stroke: color('--accent', '#5865f2'),
              fill: color('--accent', '#5865f2'),
              paths: bars,
              points: { show: false },
            },
            {
              label: labels.failed,
              value: (_u, v, _s, idx) => count(idx == null ? totals.failed : (v ?? 0)),
              stroke: color('--bad', '#c62828'),
              fill: color('--bad', '#c62828'),
              paths: bars,
              points: { show: false },
            },
          ],
        },
        [xs, all, failed],
        element,
      );
    });
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [buckets, bucketMs, width, language, labels]);

  return (
    <figure className="activity-chart">
      <div ref={host} role="img" aria-label={props.description} />
    </figure>
  );
}
