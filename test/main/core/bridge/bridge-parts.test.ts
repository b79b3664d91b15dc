import { describe, expect, it } from 'vitest';

import { headlessHost } from '../../../../src/main/core/bridge/bridge-host';
import { type BridgeOwn, makeBridgeParts } from '../../../../src/main/core/bridge/bridge-parts';
import { MemorySettingsStore } from '../../../../src/main/core/config/settings-store';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { RESERVED_SERVER_NAME, type Settings, SettingsSchema } from '../../../../src/shared/settings';
import { fastSupervision, fixtureServer } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

/** The bridge's own state, as the parts read it; what only the finished bridge can answer throws while they are made. */
function ownOf(settings: Settings, made: { done: boolean }, running = false): BridgeOwn {
  const later = (what: string) => () => {
    if (!made.done) throw new Error(`${what} asked while the parts were being made`);
    return undefined as never;
  };
  return {
    settings: () => settings,
    running: () => running,
    hubSettings: () => ({ naming: settings.naming, toolSets: settings.toolSets, maxMessageBytes: settings.limits.maxMessageBytes }),
    voiceLanguage: () => 'en',
    confirmationPin: later('confirmationPin'),
    pinFor: later('pinFor'),
    saveLocalToken: later('saveLocalToken'),
    updateSecrets: later('updateSecrets'),
    state: later('state'),
  };
}

describe('the bridge parts, made each from the ones before it', () => {
  it('are made without the state only the finished bridge answers (no part reaches one not yet made)', () => {
    const settings = SettingsSchema.parse({ servers: [fixtureServer('one')] });
    const made = { done: false };
    const parts = makeBridgeParts(
      { store: new MemorySettingsStore(settings), logBook: new LogBook(), stateDir: null },
      headlessHost,
      ownOf(settings, made),
    );
    made.done = true;
    expect([...parts.servers.all()].map((s) => s.name)).toEqual(['one']);
    expect(parts.hub.summary().toolCount).toBe(0);
  });

  it('connect the servers, made first, to the hub made after them: a server that lists its tools reaches the catalog', async () => {
    const settings = SettingsSchema.parse({ servers: [fixtureServer('one')] });
    const made = { done: false };
    const parts = makeBridgeParts(
      { store: new MemorySettingsStore(settings), logBook: new LogBook(), stateDir: null, supervision: fastSupervision },
      headlessHost,
      ownOf(settings, made, true),
    );
    made.done = true;
    const changed: string[] = [];
    parts.hub.onChange((set) => changed.push(set));
    try {
      parts.servers.startEnabled();
      await waitFor(() => changed.length > 0, 20_000, 'the hub to hear of the server tools');
      expect(parts.hub.summary().toolCount).toBeGreaterThan(0);
      // The app's own tools are counted apart, so no page counts them as the user's.
      const own = parts.hub.catalog().filter((c) => c.enabled && c.server === RESERVED_SERVER_NAME).length;
      expect(parts.hub.summary().appTools).toBe(own);
    } finally {
      await parts.servers.stopAll();
    }
  });
});
