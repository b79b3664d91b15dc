import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { waitFor } from '../../../helpers/wait';

const ctx = withEndpointTeardown(afterEach);

/** A speaker served in router mode: find_tools and call_tool, with a server that has a destructive tool. */
async function routedSpeaker(): Promise<Esp32Client> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url(), toolMode: 'router' }],
    servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' })],
  });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  return Esp32Client.open(await ctx.xiaozhi.connection(0));
}

describe('ask first, in router mode', () => {
  it("lists the bridge's own tools beside find_tools and call_tool, and holds a call_tool of an ask-first tool until confirm_action", async () => {
    const esp = await routedSpeaker();
    // The one list the ESP32 server reads: it refuses to call a name that was not in it.
    expect(esp.names).toEqual(['call_tool', 'cancel_task', 'confirm_action', 'find_tools', 'task_status']);
    const asked = await esp.say('call_tool', { name: 'delete_file', arguments: { path: '/home/me/old.log' } });
    expect(asked).toBe(
      "This needs the person's OK first: Delete a file (path: /home/me/old.log). Ask them for their confirmation PIN, then call confirm_action with what they say, within a minute. If they say no, do not. They have not seen a PIN yet: they can simply press Allow at the top of the Xiaozhi Tray window, where Show my PIN also shows it.",
    );
    const api = ctx.harness!.bridge.api;
    expect((await api.getHistory()).some((r) => r.result.startsWith('deleted'))).toBe(false);
    const { pin } = await api.revealConfirmationPin();
    expect(await esp.say('confirm_action', { pin })).toBe('deleted /home/me/old.log');

    // Held the same way for the window: Allow runs it as a task.
    await esp.say('call_tool', { name: 'delete_file', arguments: { path: '/b' } });
    const [pending] = await api.getConfirmations();
    expect(pending).toMatchObject({ tool: 'delete_file', caller: 'speaker', args: [{ name: 'path', value: '/b' }] });
    const { task } = await api.answerConfirmation({ key: pending!.key, allow: true });
    await waitFor(async () => (await api.getTasks()).some((t) => t.id === task && t.state === 'done'), 15_000, 'the task');
    expect(await esp.say('task_status', { task })).toBe(`Task ${task} (delete file) is done: deleted /b`);
  }, 60_000);
});
