import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * The parent of `pid` (undefined when it cannot be told): on Linux read from /proc, which cannot
 * time out (`ps` could on a busy machine, and the bridge then never noticed npx leave); elsewhere
 * asked of `ps` once.
 */
function parentOf(pid: number): number | undefined {
  if (process.platform === 'linux') {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The name (field 2) is in parentheses and may hold spaces: the parent is the second field after its last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
    } catch {
      // No /proc (a locked-down container): ask ps.
    }
  }
  try {
    const ppid = Number(
      execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5000,
      }).trim(),
    );
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** What to watch: the launcher's pids (the parent first), or that it had gone before we looked. */
export interface Launcher {
  pids: number[];
  goneAtStart: boolean;
}

/**
 * The processes whose going away should stop the bridge: the package manager that launched it.
 * npx, `npm exec` and `npm run` (pnpm and yarn likewise) do not pass SIGTERM on, and run us through
 * `sh -c`, which may outlive them: so both the parent and its parent are watched. Only under a
 * package manager (it leaves npm_* variables): a bridge started with `nohup … &` from a shell that
 * then exits must keep running. Orphaned already (npx killed while we started) means it is gone.
 */
export function findLauncher(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Launcher {
  if (!env.npm_execpath && !env.npm_command && !env.npm_lifecycle_event) return { pids: [], goneAtStart: false };
  const parent = process.ppid;
  if (parent <= 1) return { pids: [], goneAtStart: true };
  const grandparent = platform === 'win32' ? undefined : parentOf(parent);
  return { pids: grandparent === undefined ? [parent] : [parent, grandparent], goneAtStart: false };
}
