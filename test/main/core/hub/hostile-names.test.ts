import { afterEach, describe, expect, it } from 'vitest';

import type { EndpointSettings, SettingsInput, StdioServerSettings } from '../../../../src/shared/settings';
import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { localHubs } from '../../../helpers/local-hub';

// Issue 30: a server's tools named constructor, toString, valueOf or __proto__ ran by voice although the
// server's policy was "never" and they were destructiveHint: `toolPolicies[tool.name]` read an inherited
// member of a plain object. Names from outside (tools, servers, tool sets, clients) are fed through every
// path here: the fixture server lists them (FIXTURE_HOSTILE_NAMES), each destructiveHint, answering "<name> ran".

const HOSTILE = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty', '__defineGetter__'] as const;
/** Names a saved config may hold as keys (forbidden-keys.ts refuses __proto__, constructor and prototype in any file). */
const KEYABLE = HOSTILE.filter((name) => name !== 'constructor' && name !== '__proto__');

const ctx = withEndpointTeardown(afterEach);

/** A speaker served the fixture's hostile tools (server "files"); `input` adds to the settings, `endpoint` to the speaker's. */
async function speaker(
  server: Partial<StdioServerSettings> = {},
  input: SettingsInput = {},
  endpoint: Partial<EndpointSettings> = {},
): Promise<Esp32Client> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url(), ...endpoint }],
    servers: [fixtureServer('files', { FIXTURE_HOSTILE_NAMES: '1' }, server)],
    ...input,
  });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  return Esp32Client.open(await ctx.xiaozhi.connection(0));
}

const ran = async () => (await ctx.harness!.bridge.api.getHistory()).filter((r) => / ran$/.test(r.result)).map((r) => r.result);

describe('tools named like Object’s members', () => {
  it('are refused by voice when their server says "never" (another tool having a policy of its own)', async () => {
    const esp = await speaker({ toolPolicy: 'never', toolPolicies: { echo: 'run' } });
    for (const name of HOSTILE)
      expect(await esp.say(name)).toBe(`工具调用错误: The tool "${name}" may not be used by voice. The user can allow it in Xiaozhi Tray.`);
    expect(await ran()).toEqual([]);
  }, 60_000);

  it('ask first, as destructive tools, whatever other tools are set to', async () => {
    const esp = await speaker({ toolPolicies: { echo: 'run' } });
    for (const name of HOSTILE) expect(await esp.say(name)).toMatch(new RegExp(`^This needs the person's OK first: Run ${name}\\.`));
    expect(await ran()).toEqual([]);
    expect((await ctx.harness!.bridge.api.getConfirmations()).map((p) => p.tool)).toEqual([...HOSTILE]);
  }, 60_000);

  it('are refused through router mode too', async () => {
    const esp = await speaker({ toolPolicy: 'never', toolPolicies: { echo: 'run' } }, {}, { toolMode: 'router' });
    for (const name of HOSTILE) expect(await esp.say('call_tool', { name, arguments: {} })).toMatch(/may not be used by voice/);
    expect(await ran()).toEqual([]);
  }, 60_000);

  it('keep their own policies, switches and descriptions (those a config file can hold as keys)', async () => {
    const esp0 = await speaker({ toolPolicy: 'run', toolPolicies: { echo: 'run' } });
    esp0.session.close();
    const api = ctx.harness!.bridge.api;
    for (const name of KEYABLE) await api.setToolPolicy({ server: 'files', tool: name, policy: 'never' });
    await api.setToolEnabled({ server: 'files', tool: 'valueOf', enabled: false });
    await api.setToolDescription({ server: 'files', tool: 'toString', description: '说出名字' });
    const served = (await api.getCatalog()).filter((t) => t.server === 'files');
    expect(served.find((t) => t.originalName === 'valueOf')?.enabled).toBe(false);
    expect(served.find((t) => t.originalName === 'toString')?.description).toBe('说出名字');
    expect(served.find((t) => t.originalName === 'constructor')).toMatchObject({ enabled: true, description: 'A tool called constructor' });
    expect(served.find((t) => t.originalName === '__proto__')).toMatchObject({ enabled: true, description: 'A tool called __proto__' });
    const esp = await Esp32Client.open(await ctx.xiaozhi!.connection(1));
    expect(esp.names).not.toContain('valueOf');
    for (const name of ['toString', 'hasOwnProperty', '__defineGetter__']) expect(await esp.say(name)).toMatch(/may not be used by voice/);
    // Set to run by their server: the two a config cannot key run, nothing inherited stands in for a policy.
    expect(await esp.say('constructor')).toBe('constructor ran');
    expect(await esp.say('__proto__')).toBe('__proto__ ran');
    // The counts per tool are the calls' own.
    const counts = await api.getToolCounts();
    expect(counts.files?.constructor).toEqual({ ok: 1, failed: 0, errorText: 0 });
    expect(Object.getPrototypeOf(counts.files ?? {})).not.toBe(counts.files?.__proto__);
  }, 60_000);

  it('in tool sets: a set that switches some off, a set named like a member, served to an endpoint', async () => {
    const esp = await speaker(
      { toolPolicy: 'run' },
      {
        toolSets: [
          {
            id: 'hasOwnProperty',
            name: 'toString',
            servers: ['files'],
            tools: { files: { valueOf: { enabled: false }, toString: { enabled: false } } },
          },
        ],
      },
      { toolSet: 'hasOwnProperty' },
    );
    expect(esp.names).toEqual(expect.arrayContaining(['constructor', '__proto__', 'hasOwnProperty', '__defineGetter__']));
    expect(esp.names).not.toContain('valueOf');
    expect(esp.names).not.toContain('toString');
    expect(await esp.say('hasOwnProperty')).toBe('hasOwnProperty ran');
  }, 60_000);
});

describe('servers and clients named like Object’s members', () => {
  it('a server called toString is renamed with its switches, and refused as "never"', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
      servers: [fixtureServer('toString', { FIXTURE_HOSTILE_NAMES: '1' }, { toolPolicy: 'never', toolPolicies: { echo: 'run' } })],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const api = ctx.harness.bridge.api;
    const [server] = (await api.getSettings()).servers;
    await api.updateServer({ name: 'toString', server: { ...server!, name: 'valueOf' } });
    await api.setToolEnabled({ server: 'valueOf', tool: 'hasOwnProperty', enabled: false });
    await api.updateServer({ name: 'valueOf', server: { ...server!, name: 'files' } });
    const settings = await api.getSettings();
    expect(settings.toolSets[0]?.tools).toEqual({ files: { hasOwnProperty: { enabled: false } } });
    await ctx.harness.bridge.whenServersSettled();
    const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
    for (const name of ['constructor', 'toString', 'valueOf', '__proto__', '__defineGetter__'])
      expect(await esp.say(name)).toMatch(/may not be used by voice/);
    expect(await ran()).toEqual([]);
  }, 60_000);
});

describe('a local client named like a member', () => {
  const hub = localHubs('hostile-names-token-0123456789abcdef', 'xt-hostile-');

  it('/mcp/constructor gets the default set, not something inherited', async () => {
    const started = await hub.start({
      servers: [fixtureServer('files', { FIXTURE_HOSTILE_NAMES: '1' })],
      toolSets: [{ id: 'few', name: 'few', servers: [] }],
      localServer: { clients: { cursor: { toolSet: 'few' } } },
    });
    const { client } = await hub.connect(started.url, 'constructor');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([...HOSTILE]));
  }, 60_000);
});
