import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import { ServerWatchdog } from '../../../../src/main/core/servers/server-watchdog';
import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { isRunning } from '../../../helpers/processes';
import { waitFor } from '../../../helpers/wait';

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  vi.unstubAllEnvs();
});

const WATCHDOG = path.resolve(__dirname, '../../../../out/cli/watchdog.js');
const OWN_SECRETS = {
  XIAOZHI_TRAY_TOKEN: 'tray-token-from-env-0123456789',
  XIAOZHI_TRAY_MCP_TOKEN: 'mcp-token-from-env-0123456789',
  MCP_ENDPOINT: 'wss://api.xiaozhi.me/mcp/?token=eyJsecret',
  MODELSCOPE_API_TOKEN: 'ms-from-env',
};

/** What a real child server sees of a variable (the fixture's `getenv` tool), through the hub. */
async function childSees(h: Harness, tool: string, name: string): Promise<string> {
  const { result } = await h.bridge.toolHub.call(tool, { name }, { caller: 'test' });
  return (result.content[0] as { text: string }).text;
}

describe("the app's own secrets stay out of the servers it starts", () => {
  it('keeps XIAOZHI_TRAY_TOKEN and XIAOZHI_TRAY_MCP_TOKEN (and the endpoint, and ModelScope key) out of a child, unless its own config sets them', async () => {
    // The bridge's environment, as `connect`, `run` or a service unit may hand it over.
    const env = { ...process.env, ...OWN_SECRETS };
    harness = makeBridge(
      { servers: [fixtureServer('fx'), fixtureServer('given', { XIAOZHI_TRAY_TOKEN: 'configured-for-it' })] },
      undefined,
      { env },
    );
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    for (const name of ['XIAOZHI_TRAY_TOKEN', 'XIAOZHI_TRAY_MCP_TOKEN', 'MCP_ENDPOINT', 'MODELSCOPE_API_TOKEN']) {
      expect(`${name}=${await childSees(harness, 'fx_getenv', name)}`).toBe(`${name}=(unset)`);
    }
    expect(await childSees(harness, 'fx_getenv', 'PATH')).not.toBe('(unset)');
    // A value the user gave the server itself is the user's choice.
    expect(await childSees(harness, 'given_getenv', 'XIAOZHI_TRAY_TOKEN')).toBe('configured-for-it');
  });
});

describe.skipIf(process.platform !== 'linux')("the app's own secrets stay out of the watchdog", () => {
  it('starts the watchdog, which lives as long as the bridge, without any of them', async () => {
    for (const [name, value] of Object.entries(OWN_SECRETS)) vi.stubEnv(name, value);
    const watchdog = new ServerWatchdog({ command: process.execPath, args: [WATCHDOG] }, new LogBook().logger('app'));
    watchdog.watch([process.pid]);
    const pid = watchdog.pid as number;
    try {
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      // Before: XIAOZHI_TRAY_MCP_TOKEN=mcp-token-from-env-0123456789 (its list lacked it).
      expect(environ.filter((line) => Object.keys(OWN_SECRETS).some((name) => line.startsWith(`${name}=`)))).toEqual([]);
      expect(environ.some((line) => line.startsWith('PATH='))).toBe(true);
    } finally {
      // Told nothing is left: it exits, killing nothing (this test process was its "server").
      watchdog.close();
      await waitFor(() => !isRunning(pid), 10_000, 'the watchdog to exit');
    }
  });
});
