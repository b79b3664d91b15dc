import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { CliHarness, waitForText } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

/** A server that throws as it starts, as a misconfigured one does, over and over. */
function crashingConfig(): string {
  const dir = h.tempDir();
  const script = path.join(dir, 'crashy.js');
  fs.writeFileSync(script, "function loadConfig() { throw new Error('GITHUB_API_URL is not set'); }\nloadConfig();\n");
  return h.writeConfig({ servers: [{ name: 'gh', transport: 'stdio', command: process.execPath, args: [script] }] }, 'tray.json', dir);
}

describe("a crash-looping server's stderr in the log", () => {
  it('says why at warn, once per restart, and keeps the stack trace for --log-level debug', async () => {
    const config = crashingConfig();
    const run = h.spawn(['run', '--config', config]);
    // Two attempts, each with its restart line.
    await waitForText(run.stdout, /restarting in [\d.]+ s[\s\S]*restarting in [\d.]+ s/, 60_000);
    run.child.kill('SIGTERM');
    await run.exit;
    const lines = run
      .stdout()
      .split('\n')
      .filter((line) => line.includes('[server:gh]'));
    // Before: every line of every attempt at INFO (14 a crash: the source, a caret, 8 frames, "Node.js v20").
    expect(lines.filter((line) => / INFO .*\s{4}at /.test(line))).toEqual([]);
    expect(lines.filter((line) => line.includes(' INFO '))).toHaveLength(2);
    expect(lines.filter((line) => / WARN .*Error: GITHUB_API_URL is not set/.test(line)).length).toBeGreaterThanOrEqual(2);

    const debug = h.spawn(['run', '--config', config, '--log-level', 'debug']);
    await waitForText(debug.stdout, / DEBUG \[server:gh\]\s+at loadConfig/, 60_000);
    debug.child.kill('SIGTERM');
    await debug.exit;
  }, 150_000);
});
