import fs from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import { ChildServer } from '../../../../src/main/core/servers/child-server';
import { fixtureServer } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

const held: number[] = [];
let child: ChildServer | undefined;
afterEach(async () => {
  release();
  await child?.stop();
  child = undefined;
});

/** Opens /dev/null until the process has no file descriptor left (EMFILE); false when the limit is out of reach. */
function exhaustDescriptors(): boolean {
  try {
    for (let i = 0; i < 200_000; i++) held.push(fs.openSync('/dev/null', 'r'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EMFILE') return true;
    throw error;
  }
  return false;
}

function release(): void {
  for (const fd of held.splice(0)) fs.closeSync(fd);
}

describe('a server that could not be spawned for lack of resources', () => {
  it.skipIf(process.platform === 'win32')(
    'is retried (EMFILE), not marked failed for good, and comes up once descriptors are free',
    async () => {
      const log = new LogBook();
      child = new ChildServer({
        settings: fixtureServer('fx'),
        log: log.logger('server:fx'),
        baseEnv: process.env,
        defaults: () => ({ callTimeoutMs: 10_000 }),
        supervision: {
          restartBaseMs: 20,
          restartMaxMs: 50,
          maxCrashes: 2,
          crashWindowMs: 60_000,
          startTimeoutMs: 15_000,
          stopGraceMs: 500,
        },
        onStatus: () => undefined,
        onTools: () => undefined,
      });
      expect(exhaustDescriptors()).toBe(true);
      const server = child;
      try {
        void server.start();
        // Twice the crashes that make a server failed: a crash loop would have given up by now.
        await waitFor(() => server.status().restarts >= 4 || server.status().state === 'failed', 10_000, 'several attempts');
        expect(server.status().state).toBe('restarting');
        expect(server.status().lastErrorCause).toEqual({ code: 'server.systemLimit', params: { code: 'EMFILE' } });
      } finally {
        release();
      }
      await waitFor(() => server.status().state === 'running', 15_000, 'the server to come up');
      expect(server.currentTools.some((t) => t.name === 'echo')).toBe(true);
    },
  );
});
