import { afterEach, describe, expect, it } from 'vitest';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { waitFor } from '../../../helpers/wait';
import { Esp32Client } from '../../../helpers/esp32-client';
import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import type { StdioServerSettings } from '../../../../src/shared/settings';

const ctx = withEndpointTeardown(afterEach);

async function speaker(extra: Partial<StdioServerSettings> = {}): Promise<Esp32Client> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
    servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' }, extra)],
  });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  return Esp32Client.open(await ctx.xiaozhi.connection(0));
}

describe('ask before risky actions (by voice)', () => {
  it('a destructive tool is held, named with its arguments and a one-time code; confirm_action with that code runs it once', async () => {
    const esp = await speaker();
    expect(esp.names).toEqual(expect.arrayContaining(['delete_file', 'confirm_action']));
    const asked = await esp.say('delete_file', { path: '/home/me/report.docx' });
    expect(asked).toMatch(/^This needs the user's confirmation first: Delete a file \(path: \/home\/me\/report\.docx\)\./);
    const code = /code "(\d{4})"/.exec(asked)?.[1] as string;
    expect(code).toBeDefined();
    const history = () => ctx.harness!.bridge.api.getHistory();
    expect((await history()).some((r) => r.result.startsWith('deleted'))).toBe(false);

    const wrong = await esp.say('confirm_action', { code: code === '1000' ? '1001' : '1000' });
    expect(wrong).toBe('工具调用错误: That confirmation code is not valid. Ask for the action again.');
    expect(await esp.say('confirm_action', { code })).toBe('deleted /home/me/report.docx');
    // Once only; said again, it is told it was used (found by try22: "not valid" invited asking again).
    expect(await esp.say('confirm_action', { code })).toBe(
      'That code was already used: Delete a file (path: /home/me/report.docx) was confirmed. Do not ask for it again.',
    );
    // History: who asked, what was confirmed, by what.
    const records = await history();
    // The held call is recorded as waiting for the user's OK, not as done (found by try22: it showed "OK").
    expect(records.find((r) => r.tool === 'delete_file' && r.caller === 'speaker')).toMatchObject({
      result: expect.stringMatching(/confirmation first/),
      outcome: 'held',
    });
    expect(records.find((r) => r.result === 'deleted /home/me/report.docx')).toMatchObject({
      tool: 'delete_file',
      caller: `speaker (confirmed by voice, code ${code})`,
      arguments: expect.stringContaining('report.docx'),
      outcome: 'ok',
    });
  }, 60_000);

  it('a held call whose tool is set to "never" within the minute does not run: the code is told so, the window drops it', async () => {
    const esp = await speaker();
    const code = /code "(\d{4})"/.exec(await esp.say('delete_file', { path: '/a' }))?.[1] as string;
    const api = ctx.harness!.bridge.api;
    expect(await api.getConfirmations()).toHaveLength(1);
    await api.setToolPolicy({ server: 'files', tool: 'delete_file', policy: 'never' });
    expect(await api.getConfirmations()).toHaveLength(0);
    // No tool asks first now, so confirm_action itself is gone from the list: either way, nothing runs.
    expect(await esp.say('confirm_action', { code })).toMatch(/^工具调用错误: /);
    const records = await api.getHistory();
    expect(records.some((r) => r.result.startsWith('deleted'))).toBe(false);
    expect(records.find((r) => r.caller === 'speaker (no longer allowed by voice)')).toMatchObject({
      tool: 'delete_file',
      outcome: 'cancelled',
    });
  }, 60_000);

  it('a held call ends with its connection: after a reconnect the window does not list the action twice', async () => {
    const esp = await speaker();
    await esp.say('delete_file', { path: '/a' });
    const api = ctx.harness!.bridge.api;
    expect(await api.getConfirmations()).toHaveLength(1);
    const session = await ctx.xiaozhi!.connection(0);
    session.close();
    await waitFor(async () => (await api.getConfirmations()).length === 0, 10_000, 'the held call to end');
    expect((await api.getHistory()).find((r) => r.caller === 'speaker (not confirmed in time)')).toMatchObject({ tool: 'delete_file' });
  }, 60_000);

  it('per tool: "never" refuses with the reason (and with nothing to confirm, confirm_action is not listed)', async () => {
    const esp = await speaker({ toolPolicies: { delete_file: 'never' }, toolPolicy: 'run' } as Partial<StdioServerSettings>);
    expect(esp.names).not.toContain('confirm_action');
    expect(await esp.say('delete_file', { path: '/x' })).toBe(
      '工具调用错误: The tool "delete_file" may not be used by voice. The user can allow it in Xiaozhi Tray.',
    );
  }, 60_000);
});
