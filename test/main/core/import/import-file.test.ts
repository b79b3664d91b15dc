import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { loadConfigFile } from '../../../../src/main/core/config/load-config';
import { type Harness, makeBridge } from '../../../helpers/bridge-harness';

let harness: Harness | undefined;
const temps: string[] = [];
const writers: ChildProcess[] = [];
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  for (const w of writers.splice(0)) if (w.exitCode === null) w.kill('SIGKILL');
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

/** A named pipe with a real writer process feeding it `bytes` bytes (its size says 0). */
function fedFifo(bytes: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-fifo-'));
  temps.push(dir);
  const fifo = path.join(dir, 'claude_desktop_config.json');
  execFileSync('mkfifo', [fifo]);
  writers.push(spawn('sh', ['-c', `head -c ${bytes} /dev/zero | tr '\\0' ' ' > "${fifo}"`], { stdio: 'ignore' }));
  return fifo;
}

describe('reading a file to import or run, whatever it is', () => {
  it('refuses to preview what is not a regular file (a pipe, /dev/zero) instead of reading it without end', async () => {
    harness = makeBridge({});
    // A pipe's (and a device's) size says 0: the size check let it through to an unbounded read,
    // and a pipe nobody writes to would block the whole bridge in open().
    await expect(harness.bridge.api.previewImportFile({ path: fedFifo(5 * 1024 * 1024) })).rejects.toThrow(/not a regular file/);
    await expect(harness.bridge.api.previewImportFile({ path: '/dev/zero' })).rejects.toThrow(/not a regular file/);
    expect(harness.bridge.state().running).toBeDefined();
  });

  it('reads a config given on the command line no further than a config may be long', () => {
    // --config <(…) is a pipe too: allowed on the command line, but read only up to the limit.
    expect(() => loadConfigFile(fedFifo(5 * 1024 * 1024), {})).toThrow(/at most 4 MB/);
  });
});
