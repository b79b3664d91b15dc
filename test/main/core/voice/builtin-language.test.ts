import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, startServing, withEndpointTeardown } from '../../../helpers/bridge-harness';

const ctx = withEndpointTeardown(afterEach);

describe("the bridge's own tools follow the voice language", () => {
  it('are described in Chinese for a Chinese user, and in English once the language changes (list_changed, no reconnect)', async () => {
    const { xiaozhi, harness, session } = await startServing({
      ui: { language: 'zh-CN', theme: 'system', startHidden: false },
      servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' })],
    });
    Object.assign(ctx, { xiaozhi, harness });
    const listed = async () => (await session.listAllTools(5000 + session.mark())).tools;
    // Issue 31: its argument had no type (the Inspector warned).
    expect((await listed()).find((t) => t.name === 'confirm_action')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { pin: { type: 'string' } },
      required: ['pin'],
    });
    const described = async () => {
      const { tools } = await session.listAllTools(5000 + session.mark());
      return Object.fromEntries(tools.filter((t) => /task|confirm/.test(t.name)).map((t) => [t.name, t.description]));
    };
    expect(await described()).toEqual({
      cancel_task: '按任务编号（如 3F）取消还在进行的耗时工具调用。',
      confirm_action: '用用户刚说出的确认口令，确认正在等待用户同意的操作。只传用户亲口说的内容；用户不同意就不要调用。',
      task_status:
        '查询你被告知仍在进行的耗时工具调用。给出任务编号（如 3F）：是否已完成及其结果。不给编号：仍在进行的任务和最近完成的任务。',
    });
    // What the model is answered is in the same language.
    const asked = await session.request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/x' } });
    expect(asked.result?.content?.[0]?.text).toBe(
      '这个操作要先经用户同意：“删除文件”（path: /x）。请向用户要确认口令，再在一分钟内把用户说的内容传给 confirm_action。用户不同意就不要调用。用户还没见过口令：可以直接在小智托盘窗口顶部点「允许」；点那里的「显示我的口令」也能看到口令。',
    );
    const wrong = await session.request(2, 'tools/call', { name: 'confirm_action', arguments: { pin: '0' } });
    expect(wrong.result?.content?.[0]?.text).toBe('口令不对。“删除文件”（path: /x） 还在等待确认：请再问一次用户的确认口令。');
    // An argument it does not take is said, not ignored (issue 31: the old `code`).
    const old = await session.request(3, 'tools/call', { name: 'confirm_action', arguments: { code: '1234', pin: '1' } });
    expect(old.result?.content?.[0]?.text).toBe('confirm_action 没有参数 "code"；它只接受 "pin"。');

    const mark = session.mark();
    await harness.bridge.api.updatePreferences({ ui: { language: 'en' } });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const english = await described();
    expect(english.task_status).toMatch(/^Checks on a long tool call you were told is still running\./);
    expect(english.cancel_task).toBe('Cancels a long tool call still running, by its task id (like 3F).');
    expect(english.confirm_action).toMatch(/^Confirms the action waiting for the person's OK, with the confirmation PIN/);
    expect(xiaozhi.sessions).toHaveLength(1);
  }, 60_000);
});
