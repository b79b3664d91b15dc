import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ACTIVITY_FILE_NAME, ActivityLog, OLD_ACTIVITY_FILE_NAME, readOldActivityFile } from '../../../../src/main/core/logs/activity-log';
import { MAX_ACTIVITY_SAMPLES } from '../../../../src/shared/activity';
import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';

let dir = '';
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});
const temp = () => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-activity-')));

describe('the activity kept across restarts', () => {
  it('keeps a call made before a restart, without its arguments or result, in a file only the owner reads', async () => {
    const stateDir = temp();
    harness = makeBridge({ servers: [fixtureServer('fixture')] }, undefined, { stateDir });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const secret = 'sk-live-0123456789abcdefghij';
    await harness.bridge.api.callTool({ name: 'echo', arguments: { text: secret } });
    await harness.bridge.stop();
    harness = undefined;

    const file = path.join(stateDir, ACTIVITY_FILE_NAME);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(secret);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o077).toBe(0);

    harness = makeBridge({ servers: [fixtureServer('fixture')] }, undefined, { stateDir });
    const samples = await harness.bridge.api.getActivity();
    expect(samples).toEqual([expect.objectContaining({ tool: 'echo', server: 'fixture', caller: 'ui', outcome: 'ok' })]);
  });

  // Issue 30: the app's data folder was made 0755 when the activity file was the first thing written there;
  // the local server's state file and the sign-in tokens then refused it, or lived in a folder others list.
  it.skipIf(process.platform === 'win32')(
    'makes the data folder the owner’s alone (0700) when it is the first to write there',
    async () => {
      const stateDir = path.join(temp(), 'Xiaozhi Tray');
      const umask = process.umask(0o022);
      try {
        harness = makeBridge({ servers: [fixtureServer('fixture')] }, undefined, { stateDir });
        harness.bridge.start();
        await harness.bridge.whenServersSettled();
        await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'hi' } });
        await harness.bridge.stop();
        harness = undefined;
      } finally {
        process.umask(umask);
      }
      expect(fs.existsSync(path.join(stateDir, ACTIVITY_FILE_NAME))).toBe(true);
      expect((fs.statSync(stateDir).mode & 0o777).toString(8)).toBe('700');
    },
  );

  it('reads a damaged file of the earlier version as what it can: bad samples skipped, old ones dropped, a non-JSON file as none', () => {
    const file = path.join(temp(), OLD_ACTIVITY_FILE_NAME);
    const now = Date.now();
    const good = { time: now - 1000, tool: 't', server: 's', caller: 'ui', outcome: 'ok', durationMs: 3 };
    fs.writeFileSync(file, JSON.stringify({ samples: [good, { time: 'x' }, null, { ...good, time: now - 30 * 24 * 3600_000 }] }));
    expect(readOldActivityFile(file, now)).toEqual([good]);
    fs.writeFileSync(file, '{ not json');
    expect(readOldActivityFile(file, now)).toEqual([]);
  });

  it('stays bounded however many calls come in', () => {
    const log = new ActivityLog(undefined);
    const now = Date.now();
    for (let i = 0; i < MAX_ACTIVITY_SAMPLES * 2; i++)
      log.add({ time: now - 1000 + i / 1000, originalTool: 't', server: 's', caller: 'ui', outcome: 'ok', durationMs: 1 });
    expect(log.list(now + 1000).length).toBe(MAX_ACTIVITY_SAMPLES);
  });
});
