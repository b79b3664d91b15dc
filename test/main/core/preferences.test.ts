import { describe, expect, it } from 'vitest';

import { makeBridge } from '../../helpers/bridge-harness';

describe('updatePreferences', () => {
  it('changes only what it names: the theme does not reset the language, nor a limit the others', async () => {
    const { bridge, store } = makeBridge({
      ui: { language: 'zh-CN', theme: 'light', startHidden: true },
      limits: { maxMessageBytes: 16_384, callTimeoutMs: 90_000 },
      connection: { heartbeatIntervalMs: 45_000 },
    });
    await bridge.api.updatePreferences({ ui: { theme: 'dark' } });
    expect(store.load().ui).toEqual({ language: 'zh-CN', theme: 'dark', startHidden: true });
    await bridge.api.updatePreferences({ ui: { startHidden: false } });
    await bridge.api.updatePreferences({ ui: { language: 'en' } });
    expect(store.load().ui).toEqual({ language: 'en', theme: 'dark', startHidden: false });
    await bridge.api.updatePreferences({ limits: { callTimeoutMs: 5000 } });
    expect(store.load().limits).toMatchObject({ maxMessageBytes: 16_384, callTimeoutMs: 5000 });
    await bridge.api.updatePreferences({ connection: { reconnectMaxMs: 10_000 } });
    expect(store.load().connection).toMatchObject({ heartbeatIntervalMs: 45_000, reconnectMaxMs: 10_000 });
    await bridge.stop();
  });
});
