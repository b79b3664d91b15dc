import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, startServing, withEndpointTeardown } from '../../../helpers/bridge-harness';

const ctx = withEndpointTeardown(afterEach);

// The fourth walkthrough (issue 33): find_tools listed "filesystem / memory / xiaozhi-tray" while the window
// (and the spoken "server down" message) said 本机文件 / 记忆（知识图谱）, so the model named servers the person
// never saw. The listing carries the window's names; the tools' exact names, which a call needs, are unchanged.
describe('router mode names servers as the window does', () => {
  it('find_tools lists a catalogue server by its title and the app’s own tools as built in; hits say the same', async () => {
    const { xiaozhi, harness, session } = await startServing(
      {
        ui: { language: 'zh-CN', theme: 'system', startHidden: false },
        servers: [fixtureServer('memory', {}, { catalogue: 'memory' }), fixtureServer('fx')],
      },
      { toolMode: 'router' },
    );
    Object.assign(ctx, { xiaozhi, harness });
    let id = 1;
    const { tools } = await session.listAllTools(5000 + session.mark());
    const find = tools.find((t) => t.name === 'find_tools');
    expect(find?.description).toContain('\n- 记忆（知识图谱）（12 个工具）：');
    expect(find?.description).toContain('\n- fx（12 个工具）：');
    expect(find?.description).toContain('\n- 本应用自带（');
    expect(find?.description).not.toMatch(/- memory|xiaozhi-tray/);
    const say = async (name: string, args: Record<string, unknown>) =>
      (await session.request(id++, 'tools/call', { name, arguments: args })).result?.content?.[0]?.text ?? '';
    const found = JSON.parse(await say('find_tools', { query: 'echo', limit: 10 })) as { tools: { name: string; server: string }[] };
    // The exact names a call needs, as before; the server as the person reads it.
    expect(found.tools.find((t) => t.name === 'memory_echo')?.server).toBe('记忆（知识图谱）');
    expect(found.tools.find((t) => t.name === 'fx_echo')?.server).toBe('fx');
    expect(await say('find_tools', { query: 'xyzzy' })).toContain('现有的服务：fx、本应用自带、记忆（知识图谱）。');

    const mark = session.mark();
    await harness.bridge.api.updatePreferences({ ui: { language: 'en' } });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const en = (await session.listAllTools(6000 + session.mark())).tools.find((t) => t.name === 'find_tools');
    expect(en?.description).toContain('\n- Memory (knowledge graph) (12 tools): ');
    expect(en?.description).toContain('\n- Built into the app (');
  });

  it('find_tools finds a server’s tools by the title it lists, as the person and the model now name it', async () => {
    const { xiaozhi, harness, session } = await startServing(
      {
        ui: { language: 'zh-CN', theme: 'system', startHidden: false },
        servers: [fixtureServer('memory', {}, { catalogue: 'memory' }), fixtureServer('fx')],
      },
      { toolMode: 'router' },
    );
    Object.assign(ctx, { xiaozhi, harness });
    const text = (await session.request(1, 'tools/call', { name: 'find_tools', arguments: { query: '知识图谱', limit: 3 } })).result
      ?.content?.[0]?.text;
    const found = JSON.parse(text ?? '{}') as { tools?: { name: string }[] };
    expect(found.tools?.map((t) => t.name).every((name) => name.startsWith('memory_'))).toBe(true);
    expect(found.tools?.length).toBe(3);
  });

  it('two servers of one title are told apart by their internal names', async () => {
    const { xiaozhi, harness, session } = await startServing(
      {
        ui: { language: 'zh-CN', theme: 'system', startHidden: false },
        servers: [fixtureServer('memory', {}, { catalogue: 'memory' }), fixtureServer('memory2', {}, { catalogue: 'memory' })],
      },
      { toolMode: 'router' },
    );
    Object.assign(ctx, { xiaozhi, harness });
    const { tools } = await session.listAllTools(5000 + session.mark());
    const description = tools.find((t) => t.name === 'find_tools')?.description ?? '';
    expect(description).toContain('\n- 记忆（知识图谱）（memory）（12 个工具）：');
    expect(description).toContain('\n- 记忆（知识图谱）（memory2）（12 个工具）：');
  });
});
