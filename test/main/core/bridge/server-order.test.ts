import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';

const ctx = withEndpointTeardown(afterEach);

describe('the servers in the state', () => {
  it('keep the config order through an edit (a walkthrough saw the edited card jump to the bottom)', async () => {
    // Switched off: the order is the point here, not the processes.
    const off = { enabled: false };
    ctx.harness = makeBridge({ servers: [fixtureServer('a', {}, off), fixtureServer('b', {}, off), fixtureServer('c', {}, off)] });
    const { bridge } = ctx.harness;
    const names = () => bridge.state().servers.map((s) => s.name);
    expect(names()).toEqual(['a', 'b', 'c']);
    const a = (await bridge.api.getSettings()).servers[0]!;
    await bridge.api.updateServer({ name: 'a', server: { ...a, callTimeoutMs: 5000 } });
    expect(names()).toEqual(['a', 'b', 'c']);
    // A rename keeps its place too.
    await bridge.api.updateServer({ name: 'a', server: { ...a, name: 'a2' } });
    expect(names()).toEqual(['a2', 'b', 'c']);
  });
});
