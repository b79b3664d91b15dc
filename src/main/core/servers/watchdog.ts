import { LineDecoder } from './line-decoder';
import { isAlive, killTreesSync, listDescendantsOfAll, signalAll, waitForExit } from './process-tree';

/**
 * The watchdog process's whole job (its entries: out/cli/watchdog.js under Node, the desktop app's
 * `--bridge-watchdog` mode under Electron). The bridge starts it once, in a process group of its
 * own, and writes on its stdin the pids its servers run as, a line at a time ("pids 12 34"; each
 * line replaces the last). Its stdin ends when the bridge is gone, however it went: the system
 * closes the bridge's end of the pipe on a kill -9, a crash or the OOM killer too. Then every tree
 * of those pids is stopped, and the watchdog exits: it outlives the bridge only by that.
 */

export const WATCHDOG_LINE = /^pids((?: \d{1,10}){0,4096})$/;
/** Time for servers that saw their stdin close to exit on their own, as a clean stop gives them. */
const GRACE_MS = 2000;
/** After the kill: how long to wait for the processes to be gone before the watchdog exits anyway. */
const KILL_WAIT_MS = 5000;

/** Reads the reports until `input` ends, then stops the last reported trees; resolves with the pids still alive after all (none, normally). */
export async function runWatchdog(input: NodeJS.ReadableStream, graceMs = GRACE_MS): Promise<number[]> {
  let roots: number[] = [];
  const decoder = new LineDecoder(
    (line) => {
      const match = WATCHDOG_LINE.exec(line.trim());
      // A line that is not a report (it cannot come from the bridge) changes nothing.
      if (match) roots = (match[1] as string).split(' ').filter(Boolean).map(Number);
    },
    { maxLineBytes: 64 * 1024 },
  );
  await new Promise<void>((resolve) => {
    input.on('data', (chunk: Buffer | string) => decoder.push(Buffer.from(chunk)));
    input.once('end', resolve);
    input.once('close', resolve);
    input.once('error', () => resolve());
  });
  decoder.flush();
  return stopTrees(roots, graceMs);
}

/**
 * For the watchdog process: a signal to everything of the bridge's (systemd stopping its unit
 * signals every process in it) is the bridge's to handle, with a clean stop that then releases the
 * watchdog. The watchdog leaves when its input ends, not before: else its bridge would see it die
 * mid-stop and start another.
 */
export function ignoreStopSignals(): void {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => undefined);
}

async function stopTrees(roots: number[], graceMs: number): Promise<number[]> {
  const alive = roots.filter(isAlive);
  if (alive.length === 0) return [];
  // Listed at once: a server that exits on its closed stdin leaves the processes it started to
  // init, where no later listing finds them.
  const descendants = await listDescendantsOfAll(alive);
  await waitForExit(alive, graceMs);
  // The servers still there, with whatever they started since; then what the first listing found.
  killTreesSync(alive.filter(isAlive));
  signalAll(descendants.filter(isAlive), 'SIGKILL');
  return waitForExit([...alive, ...descendants], KILL_WAIT_MS);
}
