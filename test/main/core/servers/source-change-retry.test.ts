import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { type Harness, makeBridge, slowRestarts } from '../../../helpers/bridge-harness';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

const dirs = tempDirs('source-retry-');
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

/** npx out of reach of its registry (npm/cli's words for ENOTFOUND), marking each of its starts in `marks`. */
const offlineNpm = (marks: string) =>
  [
    `require('node:fs').appendFileSync(${JSON.stringify(marks)}, 'x');`,
    "process.stderr.write('npm error code ENOTFOUND\\n');",
    "process.stderr.write('npm error network request to https://registry.npmjs.org/some-mcp failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org\\n');",
    'process.exit(1);',
  ].join('');

const starts = (marks: string) => (fs.existsSync(marks) ? fs.readFileSync(marks, 'utf8').length : 0);

describe('a server that could not reach the download source, when the source is changed', () => {
  it('tries again by itself with the new source; a change of another setting does not restart it', async () => {
    const marks = path.join(dirs(), 'starts');
    harness = makeBridge(
      {
        mirrors: { preset: 'default' },
        servers: [{ name: 'net', transport: 'stdio', command: process.execPath, args: ['-e', offlineNpm(marks)] }],
      },
      slowRestarts,
    );
    harness.bridge.start();
    await waitFor(
      () => harness!.bridge.state().servers[0]?.lastErrorCause?.code === 'server.registryUnreachable',
      20_000,
      'the registry failure',
    );
    const before = starts(marks);
    await harness.bridge.api.updatePreferences({ ui: { theme: 'dark' } });
    await harness.bridge.api.updatePreferences({ mirrors: { preset: 'default' } });
    expect(starts(marks)).toBe(before);
    // Its own next try is ~10 s away (a network failure's delay): the new attempt must come before it.
    const retryAt = harness.bridge.state().servers[0]!.retryAt!;
    await harness.bridge.api.updatePreferences({ mirrors: { preset: 'china' } });
    await waitFor(() => starts(marks) > before, 30_000, 'a new attempt with the new source');
    expect(Date.now()).toBeLessThan(retryAt);
  });
});
