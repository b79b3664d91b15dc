import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, startServing, withEndpointTeardown } from '../../../helpers/bridge-harness';

const ctx = withEndpointTeardown(afterEach);

/** The confirmation xiaozhi speaks names the action in the voice language, in our words around the tool. */
async function askedToDelete(language: 'zh-CN' | 'en', catalogue?: string): Promise<string | undefined> {
  const { xiaozhi, harness, session } = await startServing({
    ui: { language, theme: 'system', startHidden: false },
    // The fixture's tool is titled in English by its server ("Delete a file"), as most servers do.
    servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' }, catalogue ? { catalogue } : {})],
  });
  Object.assign(ctx, { xiaozhi, harness });
  await session.listAllTools();
  const asked = await session.request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/x' } });
  return asked.result?.content?.[0]?.text;
}

describe('the action a confirmation names, as xiaozhi says it', () => {
  it('in Chinese: the catalogue’s Chinese title of the server, and the tool’s name made speakable (not its English title)', async () => {
    // Before: "这个操作要先经用户同意：Delete a file (path: /x)。…"
    expect(await askedToDelete('zh-CN', 'filesystem')).toMatch(
      /^这个操作要先经用户同意：本机文件的“删除文件”（path: \/x）。请向用户要确认口令/,
    );
  });

  // The fourth walkthrough (issue 33): "本机文件的“write file”" asked a Chinese listener in English.
  it('in Chinese, a tool name made of common words is said in Chinese; one with a word we do not know stays as it is', async () => {
    const { spokenTool } = await import('../../../../src/main/core/hub/action-description');
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
    expect(spokenTool(tool('write_file'), 'zh-CN')).toBe('写入文件');
    expect(spokenTool(tool('read_graph'), 'zh-CN')).toBe('读取图谱');
    expect(spokenTool(tool('list_allowed_directories'), 'zh-CN')).toBe('列出允许访问的文件夹');
    expect(spokenTool(tool('createEntities'), 'zh-CN')).toBe('创建实体');
    expect(spokenTool(tool('write_flurb'), 'zh-CN')).toBe('write flurb');
    expect(spokenTool(tool('write_file'), 'en')).toBe('write file');
  });

  it('in Chinese, for a server added by hand: the tool’s name made speakable', async () => {
    expect(await askedToDelete('zh-CN')).toMatch(/^这个操作要先经用户同意：“删除文件”（path: \/x）。/);
  });

  it('in English: the server’s English catalogue title before the tool’s own English title', async () => {
    expect(await askedToDelete('en', 'filesystem')).toMatch(
      /^This needs the person's OK first: Files on this computer: Delete a file \(path: \/x\)\. /,
    );
  });
});
