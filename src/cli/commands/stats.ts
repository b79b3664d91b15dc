import path from 'node:path';
import { stringOption } from '../args';
import { JSON_OPTION, type Command } from '../command';
import { summarizeActivity, type ActivityRange, type ActivitySummary } from '../../shared/activity';
import { ACTIVITY_FILE_NAME, readActivityFile } from '../../main/core/logs/activity-log';
import { appStateDir } from '../../main/core/local-server/state-file';

const ms = (value: number) => (value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`);
const percent = (part: number, whole: number) => (whole === 0 ? '0%' : `${Math.round((part / whole) * 100)}%`);

/** A range as a few lines of text: totals, latency, the busiest buckets, and every tool called. */
function printSummary(summary: ActivitySummary): string[] {
  const title = summary.range === 'day' ? 'last 24 hours' : 'last 7 days';
  const lines = [
    `${title}: ${summary.calls} calls, ${summary.failed} failed (${percent(summary.failed, summary.calls)}), p50 ${ms(summary.p50)}, p95 ${ms(summary.p95)}`,
  ];
  if (summary.calls === 0) return lines;
  const peak = Math.max(...summary.buckets.map((b) => b.ok + b.failed));
  const width = summary.range === 'day' ? 'per hour' : 'per 6 hours';
  // A one-line bar chart: each bucket's calls on an eight-step scale.
  const bars = summary.buckets
    .map((b) => (b.ok + b.failed === 0 ? '.' : '▁▂▃▄▅▆▇█'[Math.min(7, Math.floor(((b.ok + b.failed) / peak) * 7.999))]))
    .join('');
  lines.push(`  calls ${width}, oldest first: ${bars} (highest ${peak})`);
  for (const tool of summary.tools)
    lines.push(
      `  ${tool.tool} (${tool.server || 'no server'}): ${tool.calls} calls, ${tool.failed} failed, p50 ${ms(tool.p50)}, p95 ${ms(tool.p95)}`,
    );
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
    const samples = readActivityFile(file);
    const only = stringOption(args, 'range') as ActivityRange | undefined;
    const now = Date.now();
    const summaries = (only ? [only] : (['day', 'week'] as const)).map((range) => summarizeActivity(samples, range, now));
    if (args.options.json === true) {
      ctx.out(JSON.stringify({ file, samples: samples.length, ranges: summaries }, null, 2));
      return 0;
    }
    if (samples.length === 0) {
      ctx.out(`No calls recorded yet (${file}). Calls are recorded while the bridge runs: xiaozhi-tray run --config FILE.`);
      return 0;
    }
    for (const summary of summaries) ctx.out(printSummary(summary).join('\n'));
    return 0;
  },
};
