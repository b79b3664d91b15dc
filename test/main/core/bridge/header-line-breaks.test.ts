import { afterEach, describe, expect, it } from 'vitest';

import { type Harness, makeBridge, tearDown } from '../../../helpers/bridge-harness';

let harness: Harness | undefined;
afterEach(async () => {
  await tearDown(harness);
  harness = undefined;
});

/**
 * A catalogue value typed in the window loses its line breaks (inputs drop them), but one sent through the
 * API (the web page's socket, a script) kept them and reached an HTTP header: the server then failed with
 * Node's "Invalid character in header content". It is refused where it is saved, naming the field.
 */
describe('a header value with a line break', () => {
  it('is refused when a remote server is added or saved, naming the header, and nothing is saved', async () => {
    harness = makeBridge({});
    const remote = { name: 'amap', transport: 'streamable-http' as const, url: 'https://mcp.example.com/mcp' };
    await expect(harness.bridge.api.addServer({ ...remote, headers: { Authorization: 'Bearer abc\r\nX-Injected: 1' } })).rejects.toThrow(
      /at headers\.Authorization: .*line break/,
    );
    expect(harness.store.load().servers).toHaveLength(0);
    await harness.bridge.api.addServer({ ...remote, headers: { Authorization: 'Bearer abc' } });
    await expect(
      harness.bridge.api.updateServer({ name: 'amap', server: { ...remote, headers: { Authorization: 'Bearer abc\nX: 1' } } }),
    ).rejects.toThrow(/at server\.headers\.Authorization: .*line break/);
    expect(harness.store.load().servers[0]).toMatchObject({ headers: { Authorization: 'Bearer abc' } });
  });

  it('is refused for a web service’s token, which becomes its Authorization header', async () => {
    harness = makeBridge({});
    await expect(
      harness.bridge.api.addServer({ name: 'home', transport: 'home-assistant', baseUrl: 'http://127.0.0.1:8123', token: 'abc\r\ndef' }),
    ).rejects.toThrow(/at token: .*line break/);
  });
});
