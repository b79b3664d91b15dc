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
    const described = async () => {
      const { tools } = await session.listAllTools(5000 + session.mark());
      return Object.fromEntries(tools.filter((t) => /task|confirm/.test(t.name)).map((t) => [t.name, t.description]));
    };
    expect(await described()).toEqual({
      cancel_task: '按任务编号（如 3F）取消还在进行的耗时工具调用。',
      confirm_action:
        '运行用户刚刚同意的操作。只有在某个工具回答需要确认、并且用户说了同意之后才调用；传入那个回答给出的确认码。用户不同意时不要调用。',
      task_status:
        '查询你被告知仍在进行的耗时工具调用。给出任务编号（如 3F）：是否已完成及其结果。不给编号：仍在进行的任务和最近完成的任务。',
    });
    // What the model is answered is in the same language.
    const asked = await session.request(1, 'tools/call', { name: 'delete_file', arguments: { path: '/x' } });
    expect(asked.result?.content?.[0]?.text).toMatch(/^这个操作需要先经用户确认：Delete a file \(path: \/x\)。/);
    const wrong = await session.request(2, 'tools/call', { name: 'confirm_action', arguments: { code: '0' } });
    expect(wrong.result?.content?.[0]?.text).toBe('这个确认码无效。请重新发起操作。');

    const mark = session.mark();
    await harness.bridge.api.updatePreferences({ ui: { language: 'en' } });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const english = await described();
    expect(english.task_status).toMatch(/^Checks on a long tool call you were told is still running\./);
    expect(english.cancel_task).toBe('Cancels a long tool call still running, by its task id (like 3F).');
    expect(english.confirm_action).toMatch(/^Runs an action the user has just agreed to\./);
    expect(xiaozhi.sessions).toHaveLength(1);
  }, 60_000);
});
