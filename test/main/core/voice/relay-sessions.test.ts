import { randomUUID } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { MAX_WRONG_PINS } from '../../../../src/main/core/hub/builtin/confirmation-pin';
import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { type FakeSession, FakeXiaozhi } from '../../../helpers/fake-xiaozhi';

const ctx = withEndpointTeardown(afterEach);

/**
 * One device's conversation behind the self-hosted relay: every device of an agent shares the one
 * connection, and the relay rewrites each request id to "<the conversation's uuid>_n_<id>"
 * (xinnan-tech/mcp-endpoint-server, src/core/connection_manager.py, `_transform_jsonrpc_id`).
 */
class RelayedDevice {
  private readonly uuid = randomUUID();
  private next = 1;
  constructor(private readonly session: FakeSession) {}

  async say(name: string, args: Record<string, unknown>): Promise<string> {
    const response = await this.session.request(`${this.uuid}_n_${this.next++}`, 'tools/call', { name, arguments: args });
    return Esp32Client.read(response);
  }
}

describe('behind the self-hosted relay, each device’s conversation is its own voice session', () => {
  it("one device's wrong PINs neither cancel nor pause another's, and its PIN confirms only its own action", async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      endpoints: [{ id: 'e', name: 'relay', url: ctx.xiaozhi.url() }],
      servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' })],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const connection = await ctx.xiaozhi.connection(0);
    await connection.initialize();
    const kitchen = new RelayedDevice(connection);
    const bedroom = new RelayedDevice(connection);
    const { pin } = await ctx.harness.bridge.api.revealConfirmationPin();
    const wrong = pin === '000000' ? '000001' : '000000';

    await kitchen.say('delete_file', { path: '/kitchen' });
    await bedroom.say('delete_file', { path: '/bedroom' });
    for (let i = 1; i < MAX_WRONG_PINS; i++) expect(await kitchen.say('confirm_action', { pin: wrong })).toMatch(/is still waiting/);
    expect(await kitchen.say('confirm_action', { pin: wrong })).toMatch(/^工具调用错误: Too many wrong PINs/);
    // The bedroom's action still waits, and its person's PIN runs it: its own, not the kitchen's.
    expect(await bedroom.say('confirm_action', { pin })).toBe('deleted /bedroom');
    expect((await ctx.harness.bridge.api.getHistory()).some((r) => r.result === 'deleted /kitchen')).toBe(false);
    // The kitchen waits a while, even with the right PIN.
    await kitchen.say('delete_file', { path: '/kitchen' });
    expect(await kitchen.say('confirm_action', { pin })).toMatch(/^工具调用错误: Too many wrong PINs lately/);
  }, 60_000);
});
