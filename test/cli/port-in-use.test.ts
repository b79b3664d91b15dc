import net from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { CliHarness } from './cli-harness';

const h = new CliHarness();
let holder: net.Server | undefined;
afterEach(async () => {
  h.cleanup();
  await new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve()));
  holder = undefined;
});

describe('run --ui on a port another program holds', () => {
  it('stops with exit code 1, naming the port and what to do', async () => {
    holder = net.createServer();
    await new Promise<void>((resolve) => holder!.listen(0, '127.0.0.1', () => resolve()));
    const port = (holder.address() as net.AddressInfo).port;
    const config = h.writeConfig({});
    // Before: "ERROR [web] web UI: listen EADDRINUSE…", then it ran on with no window and no address.
    const result = await h.finished(['run', '--config', config, '--ui', '--port', String(port)]);
    expect(result.code).toBe(1);
    const said = result.out + result.err;
    expect(said).toContain(`port ${port} is already in use`);
    expect(said).toMatch(/another xiaozhi-tray run/);
    expect(said).toMatch(/choose another port with --port/);
    expect(said).not.toContain('Open the window in a browser');
  }, 60_000);
});
