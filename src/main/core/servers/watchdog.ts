import { LineDecoder } from './line-decoder';
import { isAlive, killTreesSync, listDescendantsOfAll, signalAll, startTimeOf, waitForExit } from './process-tree';

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

/** After a report, when the servers' helpers are listed (a server starts them as it starts). */
const FIRST_LISTING_MS = 1000;
/** While the bridge runs, how often the servers' helpers are listed again (one `ps` each time). */
const LISTING_EVERY_MS = 10_000;

/** Reads the reports until `input` ends, then stops the last reported trees; resolves with the pids still alive after all (none, normally). */
export async function runWatchdog(input: NodeJS.ReadableStream, graceMs = GRACE_MS, listingEveryMs = LISTING_EVERY_MS): Promise<number[]> {
  let roots: number[] = [];
  // The servers' descendants seen while the bridge ran, with their start times: a server that
  // exits the moment its stdin ends (most do) leaves its helpers to init before any listing at the
  // end could find them.
  let known = new Map<number, string | undefined>();
  let listing: Promise<void> | undefined;
  const list = () => {
    listing ??= listDescendantsOfAll(roots.filter(isAlive))
      .then((found) => {
        const next = new Map([...known].filter(([pid, started]) => isAlive(pid) && startTimeOf(pid) === started));
        for (const pid of found) if (!next.has(pid)) next.set(pid, startTimeOf(pid));
        known = next;
      })
      .finally(() => (listing = undefined));
  };
  let soon: NodeJS.Timeout | undefined;
  const every = setInterval(() => roots.length > 0 && list(), listingEveryMs);
  every.unref();
  const decoder = new LineDecoder(
    (line) => {
      const match = WATCHDOG_LINE.exec(line.trim());
      // A line that is not a report (it cannot come from the bridge) changes nothing.
      if (!match) return;
      roots = (match[1] as string).split(' ').filter(Boolean).map(Number);
      if (roots.length === 0) known = new Map();
      // At once, and again when the servers have had a moment to start their helpers.
      list();
      clearTimeout(soon);
      soon = setTimeout(list, FIRST_LISTING_MS);
      soon.unref();
    },
    { maxLineBytes: 64 * 1024 },
  );
  await new Promise<void>((resolve) => {
    input.on('data', (chunk: Buffer | string) => decoder.push(Buffer.from(chunk)));
    input.once('end', resolve);
    input.once('close', resolve);
    input.once('error', () => resolve());
  });
  clearInterval(every);
  clearTimeout(soon);
  decoder.flush();
  await listing;
  // Only those that are still the processes seen (not a pid used again since).
  const helpers =
    roots.length === 0 ? [] : [...known].filter(([pid, started]) => isAlive(pid) && startTimeOf(pid) === started).map(([pid]) => pid);
  return stopTrees(roots, graceMs, helpers);
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

async function stopTrees(roots: number[], graceMs: number, helpers: number[]): Promise<number[]> {
  const alive = roots.filter(isAlive);
  if (alive.length === 0 && helpers.length === 0) return [];
  // Listed at once: a server that exits on its closed stdin leaves the processes it started to
  // init, where no later listing finds them (those seen before are in `helpers`).
  const descendants = [...new Set([...helpers, ...(alive.length > 0 ? await listDescendantsOfAll(alive) : [])])];
  await waitForExit(alive, graceMs);
  // The servers still there, with whatever they started since; then what the first listing found.
  killTreesSync(alive.filter(isAlive));
  signalAll(descendants.filter(isAlive), 'SIGKILL');
  return waitForExit([...alive, ...descendants], KILL_WAIT_MS);
}
