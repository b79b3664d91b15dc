import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ACTIVITY_FILE_NAME, ActivityLog, OLD_ACTIVITY_FILE_NAME, readActivity } from '../../../../src/main/core/logs/activity-log';
import { ACTIVITY_KEEP_MS, type ActivitySample, MAX_ACTIVITY_SAMPLES } from '../../../../src/shared/activity';
import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { tempDirs } from '../../../helpers/temp-dirs';

const tempDir = tempDirs('xt-activity-lines-');
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

const DAY = 24 * 3600_000;
const sample = (tool: string, time: number): ActivitySample => ({
  time,
  tool,
  server: 's',
  caller: 'xiaozhi',
  outcome: 'ok',
  durationMs: 1,
});
const call = (tool: string, time = Date.now()) => ({
  time,
  originalTool: tool,
  server: 's',
  caller: 'xiaozhi',
  outcome: 'ok' as const,
  durationMs: 1,
});
/** A week of calls, oldest first: what a user who ran the app for a week has. */
const week = (count: number, tool: string, now = Date.now()) =>
  Array.from({ length: count }, (_, i) => sample(tool, now - 7 * DAY + Math.floor((i * 7 * DAY) / count)));
const lines = (samples: ActivitySample[]) => samples.map((s) => `${JSON.stringify(s)}\n`).join('');
const linesOf = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
const tools = (samples: ActivitySample[]) => samples.map((s) => s.tool);

describe('the activity kept as a line per call', () => {
  // Issue 35: reading and parsing a week's file at every start cost 7-9 MB of idle RSS.
  it('an idle bridge does not read a full week’s file at start: what is listed later is the file as it is then', async () => {
    const stateDir = tempDir();
    const old = path.join(stateDir, 'activity.json');
    fs.writeFileSync(old, JSON.stringify({ version: 1, samples: week(MAX_ACTIVITY_SAMPLES, 'from_last_week') }));
    harness = makeBridge({ servers: [fixtureServer('fixture')] }, undefined, { stateDir });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    // Changed on disk while the bridge idles: a bridge that read it at start lists the week.
    fs.writeFileSync(old, JSON.stringify({ version: 1, samples: [sample('written_later', Date.now() - 1000)] }));
    expect(tools(await harness.bridge.api.getActivity())).toEqual(['written_later']);
  });

  it('never reads the file at start: one changed on disk after is listed as it is', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    fs.writeFileSync(file, lines(week(MAX_ACTIVITY_SAMPLES * 1.3, 'before')));
    const { ino } = fs.statSync(file);
    const log = new ActivityLog(file);
    // Not compacted at start either.
    expect(fs.statSync(file).ino).toBe(ino);
    fs.writeFileSync(file, lines([sample('after', Date.now() - 1000)]));
    expect(tools(log.list())).toEqual(['after']);
  });

  it('appends each batch of calls (the file is never rewritten under calls) in lines only the owner reads, and they survive a restart', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    const log = new ActivityLog(file);
    log.add(call('one', Date.now() - 3000));
    log.add(call('two', Date.now() - 2000));
    log.flush();
    const { ino } = fs.statSync(file);
    const before = fs.readFileSync(file, 'utf8');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o077).toBe(0);
    log.add(call('three', Date.now() - 1000));
    log.flush();
    expect(fs.statSync(file).ino).toBe(ino);
    expect(fs.readFileSync(file, 'utf8').startsWith(before)).toBe(true);
    expect(linesOf(file)).toHaveLength(3);
    expect(tools(new ActivityLog(file).list())).toEqual(['one', 'two', 'three']);
    // What is not written yet is listed too, and written on flush (stop, quit).
    log.add(call('pending'));
    expect(tools(log.list())).toEqual(['one', 'two', 'three', 'pending']);
    log.flush();
    expect(tools(new ActivityLog(file).list())).toEqual(['one', 'two', 'three', 'pending']);
  });

  it('writes each line as JSON.stringify writes the sample, names with quotes, escapes and any script in them', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    const log = new ActivityLog(file);
    const odd = ['say "hi"\\now', '天气\n\u0001', '\u2028tab\t', 'say "hi"\\now'];
    const now = Date.now();
    const made = odd.map((name, i) => ({
      time: now + i,
      tool: name,
      server: `${name}-server`,
      caller: name,
      outcome: i % 2 ? ('error' as const) : ('errorText' as const),
      durationMs: 1.25 + i,
    }));
    for (const { tool, ...rest } of made) log.add({ ...rest, originalTool: tool });
    log.flush();
    // The duration is kept to a tenth of a millisecond.
    expect(linesOf(file)).toEqual(made.map((sample) => JSON.stringify({ ...sample, durationMs: Math.round(sample.durationMs * 10) / 10 })));
    expect(tools(new ActivityLog(file).list())).toEqual(odd);
  });

  it('writes a batch larger than one write, and a line longer than one, as whole lines after a torn one', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    fs.writeFileSync(file, '{"time":17,"tool":"to');
    const log = new ActivityLog(file);
    const now = Date.now();
    const names = Array.from({ length: 1500 }, (_, i) => `${'工具'.repeat(40)}_${i}`);
    for (const [i, name] of names.entries()) log.add({ ...call(name, now - 2000 + i), server: i === 700 ? 's'.repeat(40_000) : 's' });
    log.flush();
    const written = linesOf(file);
    expect(written).toHaveLength(names.length + 1);
    expect(written[0]).toBe('{"time":17,"tool":"to');
    expect(written.slice(1).map((line) => (JSON.parse(line) as ActivitySample).tool)).toEqual(names);
    expect((JSON.parse(written[701] as string) as ActivitySample).server).toHaveLength(40_000);
  });

  it('a torn last line (a crash while writing) loses only itself', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    fs.writeFileSync(file, `${lines([sample('kept', Date.now() - 3000)])}{"time":17,"tool":"to`);
    const log = new ActivityLog(file);
    log.add(call('after_crash', Date.now() - 1000));
    log.flush();
    expect(tools(log.list())).toEqual(['kept', 'after_crash']);
    expect(tools(readActivity(file))).toEqual(['kept', 'after_crash']);
    // Lines that are not samples are skipped too.
    fs.appendFileSync(file, 'not json\n{"time":"x"}\nnull\n');
    expect(tools(new ActivityLog(file).list())).toEqual(['kept', 'after_crash']);
  });

  it('two copies of the app sharing a data folder both keep their calls, and each lists the other’s', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    const first = new ActivityLog(file);
    const second = new ActivityLog(file);
    const now = Date.now();
    first.add(call('from_first', now - 3000));
    first.flush();
    expect(tools(first.list())).toEqual(['from_first']);
    second.add(call('from_second', now - 2000));
    second.flush();
    first.add(call('first_again', now - 1000));
    first.flush();
    expect(tools(readActivity(file))).toEqual(['from_first', 'from_second', 'first_again']);
    expect(tools(first.list())).toEqual(['from_first', 'from_second', 'first_again']);
    expect(tools(second.list())).toEqual(['from_first', 'from_second', 'first_again']);
  });

  it('a file grown well past the bounds is rewritten with the newest calls within them', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    const now = Date.now();
    const many = week(MAX_ACTIVITY_SAMPLES * 1.3, 'old', now - 1000);
    fs.writeFileSync(file, lines(many));
    const { ino } = fs.statSync(file);
    const log = new ActivityLog(file);
    log.add(call('newest', now));
    log.flush();
    expect(fs.statSync(file).ino).not.toBe(ino);
    const kept = linesOf(file);
    expect(kept).toHaveLength(MAX_ACTIVITY_SAMPLES);
    expect(JSON.parse(kept[0] ?? '')).toEqual(many[many.length - MAX_ACTIVITY_SAMPLES + 1]);
    expect(JSON.parse(kept.at(-1) ?? '')).toMatchObject({ tool: 'newest' });
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(log.list(now + 1)).toHaveLength(MAX_ACTIVITY_SAMPLES);
  });

  // Issue 35: at 20,000 calls a second the file passed its bound every 5,000 calls, and each
  // rewrite read 25,000 lines and copied 20,000: 6 % of the bridge's CPU went there.
  it('under a stream of calls the file is rewritten once a minute at most, unless it grows to three times the bounds', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    const now = Date.now();
    fs.writeFileSync(file, lines(week(MAX_ACTIVITY_SAMPLES * 1.3, 'old', now - 1000)));
    const log = new ActivityLog(file);
    log.add(call('first', now));
    log.flush();
    const compacted = fs.statSync(file).ino;
    expect(linesOf(file)).toHaveLength(MAX_ACTIVITY_SAMPLES);
    // A quarter more calls: past the bound that compacted it, within the minute.
    for (let i = 0; i < MAX_ACTIVITY_SAMPLES * 0.3; i++) log.add(call('more', now));
    log.flush();
    expect(fs.statSync(file).ino).toBe(compacted);
    expect(linesOf(file)).toHaveLength(MAX_ACTIVITY_SAMPLES * 1.3);
    expect(log.list(now + 1)).toHaveLength(MAX_ACTIVITY_SAMPLES);
    // Three times the bounds: rewritten, minute or not.
    fs.appendFileSync(file, lines(Array.from({ length: MAX_ACTIVITY_SAMPLES * 1.8 }, () => sample('burst', now))));
    log.add(call('last', now));
    log.flush();
    expect(fs.statSync(file).ino).not.toBe(compacted);
    const kept = linesOf(file);
    expect(kept).toHaveLength(MAX_ACTIVITY_SAMPLES);
    expect(JSON.parse(kept.at(-1) ?? '')).toMatchObject({ tool: 'last' });
  });

  it('a file whose oldest calls are long past the keep period is rewritten without them', () => {
    const file = path.join(tempDir(), ACTIVITY_FILE_NAME);
    const now = Date.now();
    fs.writeFileSync(file, lines([sample('ancient', now - 2 * ACTIVITY_KEEP_MS), sample('recent', now - DAY)]));
    const log = new ActivityLog(file);
    log.add(call('newest', now));
    log.flush();
    expect(linesOf(file).map((l) => (JSON.parse(l) as ActivitySample).tool)).toEqual(['recent', 'newest']);
  });

  it('an activity.json of the earlier version is moved into the new file once, nothing lost', () => {
    const dir = tempDir();
    const file = path.join(dir, ACTIVITY_FILE_NAME);
    const old = path.join(dir, OLD_ACTIVITY_FILE_NAME);
    const now = Date.now();
    const earlier = [sample('小智_tool', now - 5 * DAY), sample('b', now - 4 * DAY), sample('c', now - 3 * DAY)];
    fs.writeFileSync(old, JSON.stringify({ version: 1, samples: earlier }));
    fs.writeFileSync(file, lines([sample('already_new', now - 2 * DAY)]));
    const log = new ActivityLog(file);
    log.add(call('pending', now - 1000));
    const expected = ['小智_tool', 'b', 'c', 'already_new', 'pending'];
    // The command line reads both before any bridge moved it.
    expect(tools(readActivity(file))).toEqual(['小智_tool', 'b', 'c', 'already_new']);
    expect(tools(log.list())).toEqual(expected);
    expect(fs.existsSync(old)).toBe(false);
    expect(linesOf(file)).toHaveLength(4);
    expect(tools(log.list())).toEqual(expected);
    log.flush();
    expect(tools(new ActivityLog(file).list())).toEqual(expected);
    expect(tools(readActivity(file))).toEqual(expected);
  });
});
