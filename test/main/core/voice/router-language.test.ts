import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, startServing, withEndpointTeardown } from '../../../helpers/bridge-harness';

const ctx = withEndpointTeardown(afterEach);

/** Three English words in a row: a sentence a Chinese user would hear read in English. */
const ENGLISH_PHRASE = /\b[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}\b/;

describe('router mode speaks the voice language', () => {
  it("find_tools' and call_tool's descriptions, answers and errors, and an argument error's detail, are Chinese for a Chinese user and English once the language changes", async () => {
    const { xiaozhi, harness, session } = await startServing(
      { ui: { language: 'zh-CN', theme: 'system', startHidden: false }, servers: [fixtureServer('fx')] },
      { toolMode: 'router' },
    );
    Object.assign(ctx, { xiaozhi, harness });
    const router = async () => {
      const { tools } = await session.listAllTools(5000 + session.mark());
      return new Map(tools.filter((t) => t.name === 'find_tools' || t.name === 'call_tool').map((t) => [t.name, t]));
    };
    let id = 1;
    const say = async (name: string, args: Record<string, unknown>) =>
      (await session.request(id++, 'tools/call', { name, arguments: args })).result?.content?.[0]?.text ?? '';

    const zh = await router();
    const find = zh.get('find_tools');
    expect(find?.description).toMatch(/^在用户的 \d+ 个工具中搜索，返回最合适的几个及其准确名称和参数。/);
    expect(find?.description).toContain('\n服务：\n- fx（12 个工具）：');
    expect(find?.description).not.toMatch(ENGLISH_PHRASE);
    expect(JSON.stringify(find?.inputSchema)).not.toMatch(ENGLISH_PHRASE);
    expect(zh.get('call_tool')?.description).toBe(
      '调用用 find_tools 找到的用户工具：给出它的准确名称，以及符合 find_tools 返回的 inputSchema 的参数对象。返回该工具的结果。',
    );
    expect(JSON.stringify(zh.get('call_tool')?.inputSchema)).not.toMatch(ENGLISH_PHRASE);

    expect(await say('find_tools', {})).toBe('find_tools 需要 "query"：用几个关键词说工具要做的事，例如 {"query": "明天 天气"}。');
    expect(await say('find_tools', { query: 'xyzzy' })).toBe(
      '没有工具符合“xyzzy”。换个说法或少用几个关键词再试，中文或英文都可以。现有的服务：fx、本应用自带。',
    );
    // Nothing deletes files: said so, rather than offering a tool that writes them.
    expect(await say('find_tools', { query: '删除文件' })).toBe(
      '没有工具能做到“删除文件”：用户的工具里没有能删除、移除或取消它的。不要用别的工具代替，直接告诉用户。',
    );
    const found = JSON.parse(await say('find_tools', { query: 'echo' })) as { tools: { name: string }[]; next: string };
    expect(found.tools[0]?.name).toBe('echo');
    expect(found.next).toBe('用 call_tool 调用其中一个：{"name": <以上名称之一>, "arguments": {…符合它的 inputSchema}}。');
    expect(await say('call_tool', {})).toBe('call_tool 需要 "name"：find_tools 返回的某个工具的准确名称。');
    expect(await say('call_tool', { name: 'call_tool' })).toBe('call_tool 不能调用它自己：请给出要调用的工具名称。');
    expect(await say('call_tool', { name: 'echo', arguments: '{oops' })).toBe(
      'call_tool 的 "arguments" 必须是“echo”的参数对象，不能是无法解析为 JSON 的文字。',
    );
    expect(await say('call_tool', { name: 'echo', arguments: 5 })).toBe('call_tool 的 "arguments" 必须是“echo”的参数对象。');
    expect(await say('call_tool', { name: 'echoes' })).toBe(
      '没有名为“echoes”的工具。你是不是要找“echo”？先用 find_tools 搜索，再用它返回的准确名称调用。',
    );
    // The argument check's detail is Chinese too: which argument, what it must be.
    expect(await say('call_tool', { name: 'echo', arguments: { text: 5 } })).toBe(
      [
        '调用“echo”的参数不对。工具没有运行，问题是：',
        '- “text”应为字符串，不能是数字（5）',
        '它的参数：text（字符串，必填）。',
        '请改正参数后再调用“echo”。',
      ].join('\n'),
    );
    expect(await say('call_tool', { name: 'echo', arguments: {} })).toContain('- 缺少必填参数“text”（字符串）');

    const mark = session.mark();
    await harness.bridge.api.updatePreferences({ ui: { language: 'en' } });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const en = await router();
    expect(en.get('find_tools')?.description).toMatch(/^Searches the user's \d+ tools and returns the best matches/);
    expect(en.get('find_tools')?.description).toContain('\nServers:\n- fx (12 tools): ');
    expect(en.get('call_tool')?.description).toMatch(/^Calls one of the user's tools found with find_tools/);
    expect(await say('find_tools', {})).toBe(
      'find_tools needs "query": a few keywords for what the tool should do, e.g. {"query": "明天 天气"}.',
    );
    expect(await say('find_tools', { query: 'delete the big file' })).toBe(
      'No tool can do "delete the big file": none of the user\'s tools says it deletes, removes or cancels that. Do not use another tool in its place; tell the user.',
    );
    expect(await say('call_tool', { name: 'echo', arguments: { text: 5 } })).toBe(
      [
        'The request to "echo" was not right. The arguments for "echo" are not valid, so it was not called:',
        '- "text" must be a string, not a number (5)',
        'It takes: text (string, required).',
        'Fix the arguments and call "echo" again.',
      ].join('\n'),
    );
    expect(xiaozhi.sessions).toHaveLength(1);
  }, 60_000);
});
