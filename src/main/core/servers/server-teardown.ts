import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { isAlive, killTree, listDescendants, signalAll, waitForExit } from './process-tree';

/** How long the descendants of a killed server are waited for. */
const KILLED_EXIT_WAIT_MS = 2000;

export interface ServerRemains {
  client: Client;
  /** The stdio server's process, when it has one. */
  pid: number | undefined;
  /** Its descendants as last listed while it ran. */
  descendants: number[];
  /** How long it may take to exit by itself once its stdin is closed. */
  stopGraceMs: number;
}

/**
 * Closes a server's client and makes sure no process of it is left: graceful first (stdin closed),
 * then the whole tree, whatever the SDK's own schedule. `found` hears of descendants as they are
 * listed, so that a synchronous kill meanwhile (`killNow`) reaches them too.
 */
export async function tearDownServer(remains: ServerRemains, found: (pids: number[]) => void): Promise<void> {
  const { client, pid } = remains;
  let descendants = remains.descendants;
  if (pid !== undefined && isAlive(pid)) {
    descendants = [...new Set([...descendants, ...(await listDescendants(pid))])];
    found(descendants);
  }
  client.onclose = undefined;
  if (pid === undefined) {
    await client.close().catch(() => undefined);
    if (descendants.length > 0) signalAll(descendants.filter(isAlive), 'SIGKILL');
    return;
  }
  const closing = client.close().catch(() => undefined);
  const gone = (await waitForExit([pid], remains.stopGraceMs)).length === 0;
  if (!gone) await killTree(pid, descendants);
  await closing;
  signalAll(descendants.filter(isAlive), 'SIGKILL');
  await waitForExit([pid, ...descendants], KILLED_EXIT_WAIT_MS);
}
