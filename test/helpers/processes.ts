import fs from 'node:fs';

import { isAlive } from '../../src/main/core/servers/process-tree';

/**
 * Alive and not a zombie. An orphan that has exited stays a zombie until init reaps it, and the init
 * of some containers (this machine's, for one) takes its time: that process is gone all the same.
 */
export function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return isAlive(pid);
  }
}
