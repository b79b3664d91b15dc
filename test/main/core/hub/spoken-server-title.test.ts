import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

// Issue 33 (t-names8): xiaozhi's model heard 服务“filesystem”已停止工作 while the window calls that server 本机文件.
describe('what xiaozhi hears when a catalogue server is down', () => {
  it('names the server by its catalogue title in the voice language, as the window and spoken confirmations do', async () => {
    harness = makeBridge(
      { servers: [fixtureServer('memory', {}, { catalogue: 'memory' })], ui: { language: 'zh-CN' } },
      { restartBaseMs: 60_000, restartMaxMs: 60_000, maxCrashes: 5, crashWindowMs: 60_000, startTimeoutMs: 10_000, stopGraceMs: 500 },
    );
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const set = harness.bridge.toolHub.forSet(undefined);
    await set.call('crash', {}, { caller: 'xiaozhi' });
    const bridge = harness.bridge;
    await waitFor(() => bridge.state().servers[0]?.state === 'restarting', 10_000, 'the restart to be scheduled');
    const answer = await set.call('echo', { text: 'hi' }, { caller: 'xiaozhi' });
    const text = answer.result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    expect(answer.problem).toMatchObject({ code: 'call.unavailable', params: { server: 'memory' } });
    expect(text).toContain('服务“记忆（知识图谱）”');
    expect(text).not.toContain('memory');
  });
});
