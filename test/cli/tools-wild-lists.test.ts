import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { scaled } from '../helpers/time-scale';
import { CliHarness, fixtureEntry } from './cli-harness';

const HOSTILE = path.resolve(__dirname, '../fixtures/hostile-server.mjs');

const h = new CliHarness();
afterEach(() => h.cleanup());

/** The run's exit, or 'hung' when it has not ended within `ms` times TIME_SCALE (cleanup kills it). */
async function exitWithin(run: ReturnType<CliHarness['spawn']>, ms: number): Promise<number | null | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), scaled(ms))));
  const code = await Promise.race([run.exit, hung]);
  clearTimeout(timer);
  if (code !== 'hung' && run.child.stdout && !run.child.stdout.closed) await new Promise((resolve) => run.child.once('close', resolve));
  return code;
}

describe('tools: a server that lists a tool name twice', () => {
  it('prints the list and exits (it never returned, growing past 1 GB and ignoring SIGTERM)', async () => {
    const file = h.writeConfig({ mcpServers: { fx: fixtureEntry({ FIXTURE_DUPLICATES: '2' }) } });
    const run = h.spawn(['tools', '--config', file, '--json']);
    expect(await exitWithin(run, 60_000)).toBe(0);
    const listed = JSON.parse(run.stdout()) as { pages: { tools: { name: string }[] }[]; toolCount: number };
    const names = listed.pages.flatMap((page) => page.tools.map((tool) => tool.name));
    expect(names.filter((name) => name === 'twin')).toEqual(['twin']);
    // The fixture's 13, task_status and cancel_task.
    expect(listed.toolCount).toBe(15);
    expect(run.stderr()).toContain('tool "twin": listed 2 times (only the first is served)');
  });
});

describe('tools: a server whose tools/list is many large pages', () => {
  it("holds a bounded number of bytes of one server's list, and says the rest was left out", async () => {
    // 12 pages of one tool with a 4 MB description (48 MB); the start grace raised so reading them fits in it on a loaded machine.
    const file = h.writeConfig({
      limits: { startGraceMs: 60_000 },
      servers: [
        {
          name: 'big',
          transport: 'stdio',
          command: process.execPath,
          args: [HOSTILE],
          env: { HOSTILE_PAGES: '12', HOSTILE_DESC_BYTES: '4000000' },
        },
      ],
    });
    const { code, out, err } = await h.finished(['tools', '--config', file, '--json']);
    expect(code, err).toBe(0);
    const listed = JSON.parse(out) as { toolCount: number; bytes: number };
    // Before: 15 tools, 48,000,000+ bytes of tools held (and served whole to local clients).
    expect(listed.bytes).toBeLessThan(32 * 1024 * 1024);
    expect(listed.toolCount).toBeGreaterThanOrEqual(4);
    expect(err).toMatch(/its tools\/list answer passed 16 MB/);
  }, 120_000);
});
