import type { ChildProcess } from 'node:child_process';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach } from 'vitest';

import { stopChild } from './stop-child';

/**
 * What a file's tests open, put away after each test: push into `clients` and `children`; the MCP
 * clients are closed first, then the child processes stopped (SIGTERM, waited for). Vitest runs
 * after-hooks last registered first: call it below an afterEach that must run after it.
 */
export function closedAfterEach(): { clients: Client[]; children: ChildProcess[] } {
  const opened = { clients: [] as Client[], children: [] as ChildProcess[] };
  afterEach(async () => {
    for (const client of opened.clients.splice(0)) await client.close().catch(() => undefined);
    for (const child of opened.children.splice(0)) await stopChild(child);
  });
  return opened;
}
