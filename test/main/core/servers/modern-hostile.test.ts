import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { StdioServerSettings } from '../../../../src/shared/settings';
import { type Harness, logText, makeBridge, tearDown } from '../../../helpers/bridge-harness';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

// Attacks on the 2026-07-28 negotiation by a server that lies or answers garbage (test/fixtures/hostile-modern-server.mjs).
const HOSTILE = path.resolve(__dirname, '../../../fixtures/hostile-modern-server.mjs');
const tempDir = tempDirs('xt-modern-hostile-');
let harness: Harness | undefined;
afterEach(async () => {
  await tearDown(harness, undefined);
  harness = undefined;
});

const supervision = { restartBaseMs: 50, restartMaxMs: 100, healthIntervalMs: 0, startTimeoutMs: 10_000, stopGraceMs: 500 };
const server = () => harness!.bridge.state().servers[0]!;
const hostile = (env: Record<string, string>): StdioServerSettings =>
  ({ name: 'liar', transport: 'stdio', command: process.execPath, args: [HOSTILE], env, enabled: true }) as StdioServerSettings;

describe('a 2026-07-28 server that answers server/discover with garbage', () => {
  for (const mode of ['garbage', 'bad-info'])
    it(`(${mode}) fails its start at once with why, not at the start deadline`, async () => {
      harness = makeBridge({ servers: [hostile({ HOSTILE_DISCOVER: mode })] }, { ...supervision, maxCrashes: 3 });
      const started = Date.now();
      harness.bridge.start();
      await waitFor(() => server().lastError !== undefined, 5_000, 'the start to fail');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(server().state).not.toBe('running');
      expect(String(server().lastError).length).toBeLessThan(1_000);
    });
});

describe('a server that speaks 2026-07-28, then only the 2025 protocol after a restart', () => {
  it('is spoken to in each as it is now', async () => {
    const count = path.join(tempDir(), 'starts');
    harness = makeBridge({ servers: [hostile({ HOSTILE_COUNT_FILE: count })] }, supervision);
    harness.bridge.start();
    await waitFor(() => server().state === 'running', 10_000, 'the modern start');
    expect(logText(harness.logBook)).toContain('speaks MCP 2026-07-28');
    // The server ends (as an update would restart it); its next run speaks only the 2025 protocol.
    process.kill(Number(fs.readFileSync(count, 'utf8').trim()));
    await waitFor(() => fs.readFileSync(count, 'utf8').trim().split('\n').length === 2, 10_000, 'the restart');
    await waitFor(() => server().state === 'running', 10_000, 'the legacy start');
    expect(logText(harness.logBook).match(/speaks MCP 2026-07-28/g)).toHaveLength(1);
    expect(server().restarts).toBe(1);
  });
});
