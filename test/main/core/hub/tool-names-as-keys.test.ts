import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

/**
 * Tool names are keys of the tool set's switches (`tools[server][tool]`). A name that an object
 * already has (toString, valueOf, hasOwnProperty, constructor…) must read as "no switch saved" and
 * be switched like any other, and a server's switch must cover every one of its tools.
 */
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

const INHERITED = ['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];
const served = () =>
  new Set(
    harness!.bridge.toolHub
      .catalog()
      .filter((t) => t.enabled)
      .map((t) => t.name),
  );

async function withTools(names: string[]) {
  harness = makeBridge({ servers: [fixtureServer('fx')] });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  for (const name of names) await harness.bridge.toolHub.call('add_tool', { name }, { caller: 'test' });
  await waitFor(() => names.every((name) => harness!.bridge.toolHub.has(name)), 20_000, 'the tools to be listed');
}

describe('tools named like what every object has', () => {
  it('are served and switched off and on one by one, with their own descriptions', async () => {
    await withTools([...INHERITED, 'constructor']);
    // No switch saved: each is on, described by its server.
    for (const name of [...INHERITED, 'constructor']) expect(served().has(name)).toBe(true);
    expect(harness!.bridge.toolHub.catalog().find((t) => t.name === 'constructor')?.description).toBe('Added at run time');
    for (const name of INHERITED) {
      await harness!.bridge.api.setToolEnabled({ server: 'fx', tool: name, enabled: false });
      expect(served().has(name)).toBe(false);
      await harness!.bridge.api.setToolEnabled({ server: 'fx', tool: name, enabled: true });
      expect(served().has(name)).toBe(true);
    }
    await harness!.bridge.api.setToolDescription({ server: 'fx', tool: 'toString', description: 'Says the thing' });
    expect(harness!.bridge.toolHub.catalog().find((t) => t.name === 'toString')?.description).toBe('Says the thing');
  });

  it("a server's switch turns every one of its tools off, those included", async () => {
    await withTools(INHERITED);
    await harness!.bridge.api.setServerToolsEnabled({ server: 'fx', enabled: false });
    expect(served().size).toBe(0);
    await harness!.bridge.api.setServerToolsEnabled({ server: 'fx', enabled: true });
    for (const name of INHERITED) expect(served().has(name)).toBe(true);
  });
});
