import path from 'node:path';

import { stringOption } from '../../main/core/command-line/args';
import { appStateDir } from '../../main/core/local-server/state-file';
import { ACTIVITY_FILE_NAME, readActivity } from '../../main/core/logs/activity-log';
import { type ActivityRange, type ActivitySummary, bucketCalls, summarizeActivity } from '../../shared/activity';
import type { Translate } from '../../shared/i18n/translate';
import { type Command, JSON_OPTION } from '../command';

const ms = (value: number) => (value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`);
const percent = (part: number, whole: number) => (whole === 0 ? '0%' : `${Math.round((part / whole) * 100)}%`);

/** A range as a few lines of text: totals, latency, the busiest buckets, and every tool called. */
function printSummary(t: Translate, summary: ActivitySummary): string[] {
  const title = t(summary.range === 'day' ? 'cli.stats.day' : 'cli.stats.week');
  const { calls, failed } = summary;
  const lines = [
    t('cli.stats.total', { title, calls, failed, percent: percent(failed, calls), p50: ms(summary.p50), p95: ms(summary.p95) }),
  ];
  if (summary.calls === 0) return lines;
  const peak = Math.max(...summary.buckets.map(bucketCalls));
  const width = t(summary.range === 'day' ? 'cli.stats.perHour' : 'cli.stats.per6Hours');
  // A one-line bar chart: each bucket's calls on an eight-step scale.
  const bars = summary.buckets
    .map((b) => (bucketCalls(b) === 0 ? '.' : '▁▂▃▄▅▆▇█'[Math.min(7, Math.floor((bucketCalls(b) / peak) * 7.999))]))
    .join('');
  lines.push(t('cli.stats.chart', { width, bars, peak }));
  for (const tool of summary.tools) {
    const server = tool.server || t('cli.stats.noServer');
    lines.push(
      t('cli.stats.tool', { tool: tool.tool, server, calls: tool.calls, failed: tool.failed, p50: ms(tool.p50), p95: ms(tool.p95) }),
    );
  }
  return lines;
}

export const statsCommand: Command = {
  name: 'stats',
  summary: 'cli.stats.summary',
  usage: ['stats [--range day|week] [--json]'],
  options: [
    { name: 'range', value: 'RANGE', choices: ['day', 'week'], help: 'cli.stats.opt.range' },
    JSON_OPTION,
    {
      name: 'dir',
      value: 'FOLDER',
      help: 'cli.stats.opt.dir',
    },
  ],
  details: 'cli.stats.details',
  run: async (args, ctx) => {
    const dir = stringOption(args, 'dir') ?? appStateDir({ platform: ctx.platform, env: ctx.env });
    const file = path.join(dir, ACTIVITY_FILE_NAME);
    const samples = readActivity(file);
    const only = stringOption(args, 'range') as ActivityRange | undefined;
    const now = Date.now();
    const summaries = (only ? [only] : (['day', 'week'] as const)).map((range) => summarizeActivity(samples, range, now));
    if (args.options.json === true) {
      ctx.out(JSON.stringify({ file, samples: samples.length, ranges: summaries }, null, 2));
      return 0;
    }
    if (samples.length === 0) {
      ctx.out(ctx.t('cli.stats.none', { file }));
      return 0;
    }
    for (const summary of summaries) ctx.out(printSummary(ctx.t, summary).join('\n'));
    return 0;
  },
};
