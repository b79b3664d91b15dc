import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, startServing, withEndpointTeardown } from '../../../helpers/bridge-harness';

const ctx = withEndpointTeardown(afterEach);

describe('a result cut to fit xiaozhi says so in the voice language', () => {
  it('marks the cut in Chinese for a Chinese user, and in English once the language changes', async () => {
    const { xiaozhi, harness, session } = await startServing({
      ui: { language: 'zh-CN', theme: 'system', startHidden: false },
      servers: [fixtureServer('files')],
    });
    Object.assign(ctx, { xiaozhi, harness });
    const cut = async (id: number) => {
      const answer = await session.request(id, 'tools/call', { name: 'big', arguments: { n: 20000 } });
      return String(answer.result?.content?.[0]?.text);
    };
    expect(await cut(1)).toMatch(/^x+\n…\[内容太长，已截断：只显示了 20000 字节中的 \d+ 字节\]$/);

    const mark = session.mark();
    await harness.bridge.api.updatePreferences({ ui: { language: 'en' } });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    expect(await cut(2)).toMatch(/^x+\n…\[truncated: showing \d+ of 20000 bytes\]$/);
  }, 60_000);
});
