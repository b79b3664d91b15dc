import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { CliHarness, fixtureEntry, waitForText } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

describe('xiaozhi-tray stats', () => {
  it('summarises the calls a bridge served before it stopped, as text and as JSON', async () => {
    const xiaozhi = await h.fakeXiaozhi();
    const state = h.tempDir();
    const config = h.writeConfig({ mcpEndpoint: xiaozhi.url(), mcpServers: { fx: fixtureEntry() } });
    const env = { XIAOZHI_TRAY_STATE_DIR: state };
    const run = h.spawn(['run', '--config', config], { env });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    await session.listAllTools();
    await session.request('a', 'tools/call', { name: 'echo', arguments: { text: 'secret-argument-value' } });
    await session.request('b', 'tools/call', { name: 'fail', arguments: {} });
    run.child.kill('SIGINT');
    await run.exit;
    await waitForText(run.stdout, 'stopped');

    const text = await h.finished(['stats'], { env });
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/last 24 hours: 2 calls, 1 failed \(50%\)/);
    expect(text.out).toMatch(/echo \(fx\): 1 calls, 0 failed/);
    expect(text.out).not.toContain('secret-argument-value');

    const json = await h.finished(['stats', '--json', '--range', 'week'], { env });
    const parsed = JSON.parse(json.out) as { file: string; ranges: { range: string; calls: number; tools: { tool: string }[] }[] };
    expect(parsed.file).toBe(path.join(state, 'activity.jsonl'));
    expect(parsed.ranges).toHaveLength(1);
    expect(parsed.ranges[0]).toMatchObject({ range: 'week', calls: 2 });
  });

  it('says how calls get recorded when there are none', async () => {
    const result = await h.finished(['stats'], { env: { XIAOZHI_TRAY_STATE_DIR: h.tempDir() } });
    expect(result.code).toBe(0);
    expect(result.out).toContain('No calls recorded yet');
  });
});
