import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { waitFor } from '../../../helpers/wait';

const ctx = withEndpointTeardown(afterEach);

const stateOf = (name: string) => ctx.harness?.bridge.state().servers.find((s) => s.name === name)?.state;

describe('a tool name means the same tool for the whole session (xiaozhi-esp32-server lists once)', () => {
  it('two servers with the same tool, one gives up: the other keeps its name, in this session and the next', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'names-'));
    const refuse = path.join(dir, 'refuse-to-start');
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
      servers: [fixtureServer('memory'), fixtureServer('dies-later', { FIXTURE_EXIT_ON_START_FILE: refuse })],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
    expect(esp.names).toContain('memory_echo');
    expect(esp.names).toContain('dies-later_echo');
    expect(await esp.say('memory_echo', { text: 'before' })).toBe('memory: before');

    // dies-later crashes and cannot start again: the supervisor gives up on it.
    fs.writeFileSync(refuse, '');
    await esp.call('dies-later_crash');
    await waitFor(() => stateOf('dies-later') === 'failed', 20_000, 'dies-later to be given up');

    // The same session, with the list it kept, still reaches memory's tool…
    expect(await esp.say('memory_echo', { text: 'after' })).toBe('memory: after');
    // …and the failed server's tool says why it cannot run (not "unknown tool").
    const down = (await esp.call('dies-later_echo', { text: 'x' }))?.result;
    expect(down?.isError).toBe(true);
    expect(down?.content?.[0]?.text).toMatch(/dies-later/);
    expect(down?.content?.[0]?.text).not.toMatch(/Unknown tool/);

    // Names come from the configuration, not from which servers are up: a new session gets the same ones.
    expect(ctx.harness.bridge.toolHub.has('memory_echo')).toBe(true);
    ctx.xiaozhi.sessions[0]?.close();
    const next = await Esp32Client.open(await ctx.xiaozhi.connection(1));
    expect(next.names).toContain('memory_echo');
    expect(next.names).not.toContain('echo');
    expect(await next.say('memory_echo', { text: 'next' })).toBe('memory: next');
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('a server added during the session renames nothing the session was served; its tools are added', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
      servers: [fixtureServer('memory')],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
    expect(esp.names).toContain('echo');

    await ctx.harness.bridge.api.addServer(fixtureServer('notes'));
    await waitFor(() => ctx.harness?.bridge.toolHub.has('notes_echo') === true, 20_000, 'notes to serve its tools');
    // The catalog now needs prefixes; the session's "echo" still means memory's echo.
    expect(ctx.harness.bridge.toolHub.has('echo')).toBe(false);
    expect(await esp.say('echo', { text: 'still' })).toBe('memory: still');
    // A session that lists again is served the new names, and its old one keeps working.
    const relist = await esp.session.listAllTools(500);
    expect(relist.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['memory_echo', 'notes_echo']));
    const old = await esp.session.request(600, 'tools/call', { name: 'echo', arguments: { text: 'old' } });
    expect(Esp32Client.read(old)).toBe('memory: old');
  }, 60_000);
});
