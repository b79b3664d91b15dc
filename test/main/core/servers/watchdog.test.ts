import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';

import { afterEach, describe, expect, it } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import { isAlive } from '../../../../src/main/core/servers/process-tree';
import { ServerWatchdog } from '../../../../src/main/core/servers/server-watchdog';
import { runWatchdog } from '../../../../src/main/core/servers/watchdog';
import { isRunning } from '../../../helpers/processes';
import { waitFor } from '../../../helpers/wait';

const WATCHDOG = path.resolve(__dirname, '../../../../out/cli/watchdog.js');
const started: number[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const child of children.splice(0)) child.stdin?.destroy();
});

/**
 * A server-like tree: a process that ignores SIGTERM and has a long-lived child of its own. With
 * `exitAfterStdinMs`, it exits that long after its stdin closes (as most servers do, leaving the
 * child to init); without, it ignores its closed stdin too.
 */
async function tree(exitAfterStdinMs?: number): Promise<{ root: ChildProcess; pids: number[] }> {
  const script = `
    process.on('SIGTERM', () => {});
    const child = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    process.stdout.write(child.pid + '\\n');
    process.stdin.resume();
    ${exitAfterStdinMs !== undefined ? `process.stdin.on('end', () => setTimeout(() => process.exit(0), ${exitAfterStdinMs}));` : ''}
    setInterval(() => {}, 1000);`;
  const root = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'ignore'] });
  children.push(root);
  const grandchild = await new Promise<number>((resolve) => root.stdout?.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  const pids = [root.pid as number, grandchild];
  started.push(...pids);
  return { root, pids };
}

const gone = (pids: number[], what: string) => waitFor(() => !pids.some(isRunning), 20_000, what);

describe('the watchdog process (what it does once the bridge is gone)', () => {
  it('kills every reported tree when its input ends, servers that ignore a closed stdin and SIGTERM included', async () => {
    const a = await tree();
    const b = await tree();
    const input = new PassThrough();
    const done = runWatchdog(input, 300);
    input.write(`pids ${a.pids[0]}\n`);
    input.write(`pids ${a.pids[0]} ${b.pids[0]}\n`);
    input.end();
    await done;
    await gone([...a.pids, ...b.pids], 'both trees to be gone');
  });

  it('reaches the children of a server that exits on its closed stdin, which init would otherwise keep', async () => {
    const t = await tree(1000);
    const input = new PassThrough();
    const done = runWatchdog(input, 5000);
    input.end(`pids ${t.pids[0]}\n`);
    // The bridge's pipes close with it: the server sees its stdin end at the same moment.
    t.root.stdin?.end();
    await done;
    await gone(t.pids, 'the server and its orphaned child to be gone');
  });

  it('keeps to the last report, ignores lines that are not reports, and kills nothing when told nothing is left', async () => {
    const t = await tree();
    const input = new PassThrough();
    const done = runWatchdog(input, 300);
    input.write(`pids ${t.pids[0]}\n`);
    input.write(`pids 1 x\nkill ${process.pid}\n${'9'.repeat(100_000)}\n`);
    input.write('pids\n');
    input.end();
    expect(await done).toEqual([]);
    expect(t.pids.every(isRunning)).toBe(true);
  });
});

describe("the bridge's side of the watchdog", () => {
  const book = () => new LogBook();

  it('starts no process until a server runs, then exits when closed, killing nothing', async () => {
    const logBook = book();
    const watchdog = new ServerWatchdog({ command: process.execPath, args: [WATCHDOG] }, logBook.logger('app'));
    watchdog.watch([]);
    expect(watchdog.pid).toBeUndefined();
    const t = await tree();
    watchdog.watch([t.pids[0] as number]);
    const pid = watchdog.pid as number;
    expect(pid).toBeGreaterThan(0);
    started.push(pid);
    watchdog.close();
    await gone([pid], 'the watchdog to exit');
    expect(t.pids.every(isRunning)).toBe(true);
    expect(logBook.entries().filter((e) => e.level === 'warn')).toEqual([]);
  });

  it('starts the watchdog again if it dies, and says so', async () => {
    const logBook = book();
    const watchdog = new ServerWatchdog({ command: process.execPath, args: [WATCHDOG] }, logBook.logger('app'));
    const t = await tree();
    watchdog.watch([t.pids[0] as number]);
    const first = watchdog.pid as number;
    started.push(first);
    process.kill(first, 'SIGKILL');
    await waitFor(() => watchdog.pid !== undefined && watchdog.pid !== first, 10_000, 'a new watchdog');
    started.push(watchdog.pid as number);
    expect(logBook.entries().map((e) => e.message)).toContain(
      'the watchdog that stops the servers if the bridge is killed exited (SIGKILL); starting it again',
    );
    // The new one knows the servers: its input ending (as if the bridge died) stops them.
    (watchdog as unknown as { child: ChildProcess }).child.stdin?.end();
    await gone(t.pids, 'the tree, stopped by the second watchdog');
  });
});
