import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, makeBridge, type Harness } from '../../../helpers/bridge-harness';

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

/** What a real child server sees of a variable (the fixture's `getenv` tool), through the hub. */
async function childSees(h: Harness, tool: string, name: string): Promise<string> {
  const { result } = await h.bridge.toolHub.call(tool, { name }, { caller: 'test' });
  return (result.content[0] as { text: string }).text;
}

describe("the app's own secrets stay out of the servers it starts", () => {
  it('keeps XIAOZHI_TRAY_TOKEN and XIAOZHI_TRAY_MCP_TOKEN (and the endpoint, and ModelScope key) out of a child, unless its own config sets them', async () => {
    // The bridge's environment, as `connect`, `run` or a service unit may hand it over.
    const env = {
      ...process.env,
      XIAOZHI_TRAY_TOKEN: 'tray-token-from-env-0123456789',
      XIAOZHI_TRAY_MCP_TOKEN: 'mcp-token-from-env-0123456789',
      MCP_ENDPOINT: 'wss://api.xiaozhi.me/mcp/?token=eyJsecret',
      MODELSCOPE_API_TOKEN: 'ms-from-env',
    };
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
