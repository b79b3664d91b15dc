import { afterEach, describe, expect, it } from 'vitest';

import { type Harness, makeBridge } from '../../../helpers/bridge-harness';

/**
 * One endpoint, one owner: the same address and token twice would have two connections replace
 * each other (the self-hosted relay then forgets the agent: src/core/connection_manager.py of
 * xinnan-tech/mcp-endpoint-server unregisters it by agent id when a replaced connection closes).
 */
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvd25lciJ9.c2lnbmF0dXJl';
const URL_ = `wss://127.0.0.1:9/mcp/?token=${TOKEN}`;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

describe('the same endpoint twice', () => {
  it('is refused when added again, spaces, a slash or quotes aside, naming the one that exists', async () => {
    harness = makeBridge({});
    const { api } = harness.bridge;
    await api.addEndpoint({ name: 'home', url: URL_ });
    for (const again of [`  ${URL_}  `, URL_.replace('/mcp/', '/mcp'), `"${URL_}"`, `MCP_ENDPOINT=${URL_.replace('wss://', 'WSS://')}`])
      await expect(api.addEndpoint({ name: 'home 2', url: again })).rejects.toThrow(/same endpoint as "home"/);
    expect(harness.store.load().endpoints.map((e) => e.name)).toEqual(['home']);
    // Another token on the same host is another agent: welcome.
    await api.addEndpoint({ name: 'office', url: URL_.replace(TOKEN, `${TOKEN}x`) });
    expect(harness.store.load().endpoints).toHaveLength(2);
  });

  it('says so before adding: what was taken off the paste, and which endpoint it already is', async () => {
    harness = makeBridge({});
    const { api } = harness.bridge;
    expect(await api.checkEndpointUrl({ url: `export MCP_ENDPOINT="${URL_}"` })).toEqual({
      removed: expect.arrayContaining(['prefix', 'quotes']),
    });
    const { id } = await api.addEndpoint({ name: 'home', url: `"${URL_}"` });
    // Saved clean.
    expect(harness.store.load().endpoints[0]?.url).toBe(URL_);
    const check = await api.checkEndpointUrl({ url: URL_.replace('/mcp/', '/mcp') });
    expect(check).toMatchObject({ removed: [], sameAs: { id, name: 'home' } });
    // The token never comes back.
    expect(JSON.stringify(check)).not.toContain(TOKEN);
    expect(await api.checkEndpointUrl({ url: 'https://xiaozhi.me/console' })).toEqual({ removed: [], refused: 'scheme' });
  });

  it('is refused when an endpoint is changed into another one', async () => {
    harness = makeBridge({});
    const { api } = harness.bridge;
    await api.addEndpoint({ name: 'home', url: URL_ });
    const other = await api.addEndpoint({ name: 'office', url: URL_.replace(TOKEN, `${TOKEN}x`) });
    await expect(api.updateEndpoint({ id: other.id, url: `${URL_} ` })).rejects.toThrow(/same endpoint as "home"/);
  });

  it('already saved twice (before this check), the second is held off instead of fighting the first', async () => {
    harness = makeBridge({
      endpoints: [
        { id: 'a', name: 'home', url: URL_ },
        { id: 'b', name: 'home', url: URL_.replace('/mcp/', '/mcp') },
      ],
    });
    harness.bridge.start();
    const held = harness.bridge.state().endpoints.find((e) => e.id === 'b');
    expect(held).toMatchObject({ state: 'disconnected', lastErrorCause: { code: 'endpoint.duplicate', params: { name: 'home' } } });
    expect(harness.bridge.state().endpoints.find((e) => e.id === 'a')?.state).not.toBe('disconnected');
    // Another change of the settings is still possible (the old pair does not block it).
    await harness.bridge.api.updateEndpoint({ id: 'a', name: 'home (main)' });
    // Removing the first lets the second connect.
    await harness.bridge.api.removeEndpoint({ id: 'a' });
    expect(harness.bridge.state().endpoints.find((e) => e.id === 'b')?.lastErrorCause?.code).not.toBe('endpoint.duplicate');
  });
});
