import { afterEach, describe, expect, it } from 'vitest';

import { type FakeNpx, fakeNpx } from '../helpers/fake-npx';
import { CliHarness } from './cli-harness';

const h = new CliHarness();
let npx: FakeNpx | undefined;
afterEach(async () => {
  await h.cleanup();
  npx?.remove();
  npx = undefined;
});

describe.skipIf(process.platform === 'win32')('tools and servers on the first run of an npx server', () => {
  it('say it is downloading and installing, wait for it, and list its tools (it exited 1 with nothing after the grace)', async () => {
    npx = fakeNpx();
    const file = h.writeConfig({
      limits: { startGraceMs: 1000 },
      servers: [
        { name: 'weather', transport: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp'], env: npx.env({ FAKE_NPX_SECONDS: '4' }) },
      ],
    });
    for (const command of ['tools', 'servers']) {
      // The stand-in never fills the cache: each command sees a first run.
      const run = await h.finished([command, '--config', file]);
      expect(run.err, command).toMatch(
        /weather: npx is downloading and installing @acme\/weather-mcp for its first run; waiting for it \(at most 10 min; Ctrl\+C stops\)/,
      );
      expect(run.code, `${command}: ${run.out}${run.err}`).toBe(0);
      if (command === 'tools') expect(run.out).toMatch(/\becho\b/);
      else expect(run.out).toMatch(/\nweather\s+stdio\s+running\s+12\s/);
    }
  }, 60_000);
});
