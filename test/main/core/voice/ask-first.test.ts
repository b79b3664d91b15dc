import { afterEach, describe, expect, it } from 'vitest';

import type { SettingsInput, StdioServerSettings } from '../../../../src/shared/settings';
import { fixtureServer, logText, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { waitFor } from '../../../helpers/wait';

const ctx = withEndpointTeardown(afterEach);

async function speaker(extra: Partial<StdioServerSettings> = {}, input: SettingsInput = {}): Promise<Esp32Client> {
  await ctx.xiaozhi?.close();
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
    servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' }, extra)],
    ...input,
  });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  return Esp32Client.open(await ctx.xiaozhi.connection(0));
}

describe('ask before risky actions (by voice)', () => {
  it("a destructive tool is held, named with its arguments; the person's PIN (made at the first need, shown only in the window) runs it once", async () => {
    const esp = await speaker();
    expect(esp.names).toEqual(expect.arrayContaining(['delete_file', 'confirm_action']));
    const asked = await esp.say('delete_file', { path: '/home/me/report.docx' });
    // Nobody was ever shown the PIN: the model is told where the person finds it.
    expect(asked).toBe(
      "This needs the person's OK first: Delete a file (path: /home/me/report.docx). Ask them for their confirmation PIN, then call confirm_action with what they say, within a minute. If they say no, do not. They have not seen a PIN yet: they can simply press Allow at the top of the Xiaozhi Tray window, where Show my PIN also shows it.",
    );
    const api = ctx.harness!.bridge.api;
    const history = () => api.getHistory();
    expect((await history()).some((r) => r.result.startsWith('deleted'))).toBe(false);
    // The PIN made for the person: six digits, in no answer, log or history; never in the settings a UI reads.
    const { pin } = await api.revealConfirmationPin();
    expect(pin).toMatch(/^\d{6}$/);
    expect(JSON.stringify(await api.getSettings())).not.toContain(pin);
    expect(await esp.say('confirm_action', { pin: pin === '000000' ? '000001' : '000000' })).toBe(
      '工具调用错误: That is not the PIN. Delete a file (path: /home/me/report.docx) is still waiting: ask the person for their PIN again.',
    );
    expect(await esp.say('confirm_action', { pin: `${pin.slice(0, 3)} ${pin.slice(3)}` })).toBe('deleted /home/me/report.docx');
    // Once only; said again, it is told it ran (before: "not valid" invited asking again).
    expect(await esp.say('confirm_action', { pin })).toBe(
      'Delete a file (path: /home/me/report.docx) was already confirmed. Do not ask for it again.',
    );
    // Shown in the window now: the model is no longer told where to find it.
    expect(await esp.say('delete_file', { path: '/b' })).toMatch(/within a minute\. If they say no, do not\.$/);
    // History: who asked, what was confirmed, by what; the PIN masked.
    const records = await history();
    // The held call is recorded as waiting for the user's OK, not as done (before: it showed "OK"),
    // and its run takes the same row (issue 33: one row per call, no English suffix on the caller).
    const held = records.find((r) => r.tool === 'delete_file' && r.confirmation?.state === 'waiting');
    expect(held).toMatchObject({ result: expect.stringMatching(/OK first/), outcome: 'held', caller: 'speaker' });
    const confirmed = records.filter((r) => r.arguments.includes('report.docx'));
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]).toMatchObject({
      tool: 'delete_file',
      caller: 'speaker',
      confirmation: { state: 'allowed', in: 'voice' },
      result: 'deleted /home/me/report.docx',
      outcome: 'ok',
    });
    const everything = JSON.stringify([records, await api.getLogs({}), await api.getActivity()]);
    expect(everything).not.toContain(pin);
    // Said once, when the PIN was made (configs from before the PIN keep their "ask", which now asks for it).
    expect(logText(ctx.harness!.logBook).split('"ask first" now needs the person to say their confirmation PIN')).toHaveLength(2);
  }, 60_000);

  it('where the person finds a PIN the app made: headless with no web page, the config file; a PIN they wrote there is theirs', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge(
      {
        endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
        servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' })],
      },
      undefined,
      { pinShownIn: 'configFile' },
    );
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
    expect(await esp.say('delete_file', { path: '/a' })).toMatch(
      /If they say no, do not\. Their PIN is in Xiaozhi Tray's config file, under confirmation\.$/,
    );
    expect(ctx.harness.store.load().confirmation).toMatchObject({ pin: expect.stringMatching(/^\d{6}$/), pinShown: false });
    await ctx.harness.bridge.stop();

    const esp2 = await speaker({}, { confirmation: { pin: '0420' } });
    expect(await esp2.say('delete_file', { path: '/b' })).toMatch(/If they say no, do not\.$/);
    expect(await esp2.say('confirm_action', { pin: '零四二零' })).toBe('deleted /b');
  }, 60_000);

  it('"only in the window": voice cannot confirm it whatever it says; Allow in the window runs it', async () => {
    const esp = await speaker({ toolPolicy: 'window' } as Partial<StdioServerSettings>);
    // Nothing asks for a PIN: confirm_action takes no place in the list.
    expect(esp.names).not.toContain('confirm_action');
    const asked = await esp.say('delete_file', { path: '/a' });
    expect(asked).toBe(
      'This must be allowed in the Xiaozhi Tray window or its web page: Delete a file (path: /a). It waits there for a minute; tell the person to press Allow there. It cannot be confirmed by voice.',
    );
    const api = ctx.harness!.bridge.api;
    const [pending] = await api.getConfirmations();
    expect(pending).toMatchObject({ via: 'window', tool: 'delete_file' });
    const { task } = await api.answerConfirmation({ key: pending!.key, allow: true });
    await waitFor(async () => (await api.getTasks()).some((t) => t.id === task && t.state === 'done'), 15_000, 'the task');
    expect(await esp.say('task_status', { task })).toBe(`Task ${task} (delete file) is done: deleted /a`);
  }, 60_000);

  it('a held call whose tool is set to "never" within the minute does not run: the PIN is told so, the window drops it', async () => {
    const esp = await speaker();
    await esp.say('delete_file', { path: '/a' });
    const api = ctx.harness!.bridge.api;
    const { pin } = await api.revealConfirmationPin();
    expect(await api.getConfirmations()).toHaveLength(1);
    await api.setToolPolicy({ server: 'files', tool: 'delete_file', policy: 'never' });
    expect(await api.getConfirmations()).toHaveLength(0);
    // No tool asks first now, so confirm_action itself is gone from the list: either way, nothing runs.
    expect(await esp.say('confirm_action', { pin })).toMatch(/^工具调用错误: /);
    const records = await api.getHistory();
    expect(records.some((r) => r.result.startsWith('deleted'))).toBe(false);
    expect(records.filter((r) => r.tool === 'delete_file')).toEqual([
      expect.objectContaining({ caller: 'speaker', outcome: 'cancelled', confirmation: { state: 'withdrawn' } }),
    ]);
  }, 60_000);

  it('a held call whose tool is set to "only in the window" within the minute waits for the window: the PIN no longer runs it', async () => {
    // Every tool of the server asks first, so confirm_action stays listed when delete_file alone becomes window-only.
    const esp = await speaker({ toolPolicy: 'ask' } as Partial<StdioServerSettings>);
    await esp.say('delete_file', { path: '/a' });
    const api = ctx.harness!.bridge.api;
    const { pin } = await api.revealConfirmationPin();
    await api.setToolPolicy({ server: 'files', tool: 'delete_file', policy: 'window' });
    expect(await esp.say('confirm_action', { pin })).toBe(
      '工具调用错误: Delete a file (path: /a) can only be allowed in the Xiaozhi Tray window or its web page, not by voice.',
    );
    expect((await api.getHistory()).some((r) => r.result.startsWith('deleted'))).toBe(false);
    const [pending] = await api.getConfirmations();
    expect(pending).toMatchObject({ via: 'window', tool: 'delete_file' });
  }, 60_000);

  it('a held call ends with its connection: after a reconnect the window does not list the action twice', async () => {
    const esp = await speaker();
    await esp.say('delete_file', { path: '/a' });
    const api = ctx.harness!.bridge.api;
    expect(await api.getConfirmations()).toHaveLength(1);
    const session = await ctx.xiaozhi!.connection(0);
    session.close();
    await waitFor(async () => (await api.getConfirmations()).length === 0, 10_000, 'the held call to end');
    expect((await api.getHistory()).filter((r) => r.tool === 'delete_file')).toEqual([
      expect.objectContaining({ caller: 'speaker', confirmation: { state: 'expired' } }),
    ]);
  }, 60_000);

  it('per tool: "never" refuses with the reason (and with nothing to confirm, confirm_action is not listed)', async () => {
    const esp = await speaker({ toolPolicies: { delete_file: 'never' }, toolPolicy: 'run' } as Partial<StdioServerSettings>);
    expect(esp.names).not.toContain('confirm_action');
    expect(await esp.say('delete_file', { path: '/x' })).toBe(
      '工具调用错误: The tool "delete_file" may not be used by voice. The user can allow it in Xiaozhi Tray.',
    );
  }, 60_000);
});
