import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * npx / uvx / cmd wrappers start grandchildren; killing only the direct child leaves them running.
 * So we snapshot the whole tree before stopping and kill what is left afterwards.
 */

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, args, { windowsHide: true, maxBuffer: 8 * 1024 * 1024 }, (error, stdout) => {
      resolve(error ? '' : stdout);
    });
  });
}

/** Every descendant pid of `root` (not `root` itself), deepest last. */
export async function listDescendants(root: number): Promise<number[]> {
  return descendantsFromTable(await processTable(), root);
}

/** Every descendant of any of `roots` (not the roots themselves), from one reading of the process table. */
export async function listDescendantsOfAll(roots: number[]): Promise<number[]> {
  const table = await processTable();
  return [...new Set(roots.flatMap((root) => descendantsFromTable(table, root)))];
}

/** "pid ppid" lines of every process on the machine ('' when they cannot be read). */
function processTable(): Promise<string> {
  if (process.platform === 'win32') {
    return run('powershell.exe', [
      '-NoProfile',
      '-Command',
      'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId)" }',
    ]);
  }
  return run('ps', ['-A', '-o', 'pid=,ppid=']);
}

/** Parses "pid ppid" lines and walks the tree below `root`. */
export function descendantsFromTable(table: string, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of table.split(/\r?\n/)) {
    const [pidText, ppidText] = line.trim().split(/\s+/);
    const pid = Number(pidText);
    const ppid = Number(ppidText);
    if (!Number.isInteger(pid) || !Number.isInteger(ppid) || pid === ppid) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const result: number[] = [];
  const queue = [root];
  const seen = new Set<number>([root]);
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of children.get(next) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      result.push(child);
      queue.push(child);
    }
  }
  return result;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `pid` runs as this user, as the writer of a state file must: a process we may not signal
 * (EPERM) is someone else's, whatever it listens on, and pid 1 is the system's init, never the app.
 * (`isAlive` counts both as alive: right for a child we are waiting to see gone.)
 */
export function isOwnProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * When `pid` started, as the system counts (Linux: clock ticks since boot, from /proc); undefined
 * where it cannot be read. The same pid with another start time is another process: a pid used
 * again after the one we knew ended.
 */
export function startTimeOf(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) is in parentheses and may hold spaces: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Sends `signal` to each pid that is still there; ignores the ones already gone. */
export function signalAll(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Kills `root` and everything below it, now. */
export async function killTree(root: number, knownDescendants: number[] = []): Promise<void> {
  if (process.platform === 'win32') {
    await run('taskkill', ['/pid', String(root), '/T', '/F']);
    signalAll(knownDescendants, 'SIGKILL');
    return;
  }
  const pids = new Set([...knownDescendants, ...(await listDescendants(root))]);
  signalAll([root, ...pids], 'SIGKILL');
}

/**
 * Kills each of `pids` and everything below them before returning: for a process that must exit
 * now (a second Ctrl+C, a crash) and cannot wait for the asynchronous path.
 */
export function killTreesSync(pids: Iterable<number>): void {
  const roots = [...new Set(pids)].filter(isAlive);
  if (roots.length === 0) return;
  if (process.platform === 'win32') {
    for (const root of roots) {
      try {
        execFileSync('taskkill', ['/pid', String(root), '/T', '/F'], { windowsHide: true, stdio: 'ignore', timeout: 5000 });
      } catch {
        // already gone, or taskkill failed: the direct kill below still applies
      }
    }
    signalAll(roots, 'SIGKILL');
    return;
  }
  let table = '';
  try {
    table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
      maxBuffer: 8 * 1024 * 1024,
    });
  } catch {
    // no ps: the pids we know of are all we can kill
  }
  signalAll(new Set([...roots, ...roots.flatMap((root) => descendantsFromTable(table, root))]), 'SIGKILL');
}

/** Resolves once none of `pids` is alive, or after `timeoutMs`; returns the survivors. */
export async function waitForExit(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    alive = alive.filter(isAlive);
  }
  return alive;
}
