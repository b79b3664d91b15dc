import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { Bridge } from '../../../../src/main/core/bridge/bridge';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import type { StdioServerSettings } from '../../../../src/shared/settings';
import { localHubs } from '../../../helpers/local-hub';
import { waitFor } from '../../../helpers/wait';

const TOKEN = 'passthrough-test-token-0123456789';
const RESOURCE_FIXTURE = path.resolve(__dirname, '../../../fixtures/resource-server.mjs');
const hub = localHubs(TOKEN, 'xt-pass-');

let bridge: Bridge | undefined;
let logBook: LogBook | undefined;

function resourceServer(name: string, env: Record<string, string> = {}): StdioServerSettings {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [RESOURCE_FIXTURE],
    env: { FIXTURE_NAME: name, ...env },
    enabled: true,
  };
}

/** alpha and beta (the same URIs and prompt names), gamma whose lists fail; cursor's set is alpha's, vscode's beta's, /mcp all. */
async function start(): Promise<string> {
  const started = await hub.start(
    {
      servers: [resourceServer('alpha'), resourceServer('beta'), resourceServer('gamma', { FIXTURE_FAIL_LISTS: '1' })],
      toolSets: [
        { name: 'a', servers: ['alpha'] },
        { name: 'b', servers: ['beta'] },
      ],
      localServer: { clients: { cursor: { toolSet: 'a' }, vscode: { toolSet: 'b' } } },
    },
    { listChangedDebounceMs: 20 },
  );
  ({ bridge, logBook } = started);
  return started.url;
}

interface Heard {
  updated: string[];
  logs: LoggingMessageNotification['params'][];
  resourcesChanged: number;
  promptsChanged: number;
}

/** A session at /mcp/<client> (or /mcp), recording what it is told besides answers. */
async function session(url: string, client = ''): Promise<{ client: Client; heard: Heard }> {
  const heard: Heard = { updated: [], logs: [], resourcesChanged: 0, promptsChanged: 0 };
  const { client: sdk } = await hub.connect(url, client, {
    before: (sdk) => {
      sdk.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.updated.push(n.params.uri));
      sdk.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.logs.push(n.params));
      sdk.setNotificationHandler(ResourceListChangedNotificationSchema, () => void heard.resourcesChanged++);
      sdk.setNotificationHandler(PromptListChangedNotificationSchema, () => void heard.promptsChanged++);
    },
  });
  // A round trip: the stream notifications come on (opened after initialize) is there by its end.
  await sdk.listTools();
  return { client: sdk, heard };
}

const textOf = (contents: object[]) => contents.map((c) => ('text' in c ? String(c.text) : '')).join('');

describe('what local sessions get of their servers besides tools', () => {
  it('maps resources, templates and prompts of two servers apart, reads them back, completes and combines instructions', async () => {
    const url = await start();
    const { client } = await session(url);

    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri).sort();
    expect(uris).toEqual([
      'note://alpha/own',
      'note://beta/own',
      'xiaozhi-tray://alpha/note://shared',
      'xiaozhi-tray://beta/note://shared',
    ]);
    expect(resources.find((r) => r.uri === 'note://beta/own')?.name).toBe('beta/own');
    expect(textOf((await client.readResource({ uri: 'xiaozhi-tray://alpha/note://shared' })).contents)).toBe('shared note from alpha');
    expect(textOf((await client.readResource({ uri: 'xiaozhi-tray://beta/note://shared' })).contents)).toBe('shared note from beta');
    const own = await client.readResource({ uri: 'note://beta/own' });
    expect(own.contents[0]).toMatchObject({ uri: 'note://beta/own', text: 'own note of beta' });
    // The same URI from two servers stands for neither: the client is told it is not found.
    await expect(client.readResource({ uri: 'note://shared' })).rejects.toThrow(/-32002|not found/i);

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'xiaozhi-tray://alpha/note://{topic}/page',
      'xiaozhi-tray://beta/note://{topic}/page',
    ]);
    const page = await client.readResource({ uri: 'xiaozhi-tray://beta/note://cats/page' });
    expect(page.contents[0]).toMatchObject({ uri: 'xiaozhi-tray://beta/note://cats/page', text: 'page cats of beta' });
    const topics = await client.complete({
      ref: { type: 'ref/resource', uri: 'xiaozhi-tray://alpha/note://{topic}/page' },
      argument: { name: 'topic', value: 'alpha-t' },
    });
    expect(topics.completion.values).toEqual(['alpha-two']);

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['alpha_greet', 'beta_greet']);
    const greeting = await client.getPrompt({ name: 'beta_greet', arguments: { who: 'Ann' } });
    expect(greeting.messages[0]?.content).toMatchObject({ type: 'text', text: 'beta greets Ann' });
    const who = await client.complete({ ref: { type: 'ref/prompt', name: 'alpha_greet' }, argument: { name: 'who', value: 'alpha-b' } });
    expect(who.completion.values).toEqual(['alpha-bob']);

    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('## alpha\nAsk alpha about its notes.');
    expect(instructions).toContain('## beta\nAsk beta about its notes.');
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
    });

    // A tool's resource link and embedded resource carry the URI the client reads them by.
    const linked = (await client.callTool({ name: 'alpha_link', arguments: {} })) as CallToolResult;
    expect(linked.content).toMatchObject([
      { type: 'resource_link', uri: 'xiaozhi-tray://alpha/note://shared' },
      { type: 'resource', resource: { uri: 'xiaozhi-tray://alpha/note://shared' } },
    ]);
    expect(textOf((await client.readResource({ uri: 'xiaozhi-tray://alpha/note://shared' })).contents)).toBe('shared note from alpha');
  }, 30_000);

  it('keeps a URI as its server gave it in a set where no other server claims it, and the instructions of that set only', async () => {
    const url = await start();
    const { client } = await session(url, 'cursor');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['note://alpha/own', 'note://shared']);
    expect(textOf((await client.readResource({ uri: 'note://shared' })).contents)).toBe('shared note from alpha');
    // A URI only one server could expand to reaches it too.
    expect(textOf((await client.readResource({ uri: 'note://dogs/page' })).contents)).toBe('page dogs of alpha');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    expect(client.getInstructions()).toBe('## alpha\nAsk alpha about its notes.');
  }, 30_000);

  it("passes a server's refusal on with the code and words it gave, as a client asking it directly sees them", async () => {
    const direct = new Client({ name: 'direct', version: '1.0.0' }, { capabilities: {} });
    hub.track(direct);
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [RESOURCE_FIXTURE], env: { FIXTURE_NAME: 'alpha' } }));
    const refusal = (ask: Promise<unknown>) =>
      ask.then(
        () => undefined,
        (error: { code?: number; message: string }) => ({ code: error.code, message: error.message }),
      );
    // greet without its argument, and a page the server will not serve: the server's own errors.
    const directly = [
      await refusal(direct.getPrompt({ name: 'greet' })),
      await refusal(direct.readResource({ uri: 'note://alpha/own/x' })),
    ];
    expect(directly[0]?.message).toMatch(/greet/);

    const url = await start();
    const { client } = await session(url, 'cursor');
    const through = [await refusal(client.getPrompt({ name: 'greet' })), await refusal(client.readResource({ uri: 'note://alpha/own/x' }))];
    expect(through).toEqual(directly);
  }, 30_000);

  it('lists what the others offer when one server fails its lists, and says why at debug level', async () => {
    const url = await start();
    const { client } = await session(url);
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(4);
    expect((await client.listPrompts()).prompts).toHaveLength(2);
    const debug = logBook!
      .entries()
      .filter((e) => e.level === 'debug')
      .map((e) => e.message);
    expect(debug.some((m) => /server "gamma" failed resources\/list/.test(m) && /cannot list today/.test(m))).toBe(true);
  }, 30_000);

  it("delivers a resource's update to the sessions that subscribed to it, under the URI each subscribed with", async () => {
    const url = await start();
    const all = await session(url);
    const other = await session(url);
    const cursor = await session(url, 'cursor');
    await all.client.subscribeResource({ uri: 'xiaozhi-tray://alpha/note://shared' });
    await cursor.client.subscribeResource({ uri: 'note://shared' });
    const touched = (await all.client.callTool({ name: 'alpha_touch', arguments: {} })) as CallToolResult;
    expect(touched.content).toEqual([{ type: 'text', text: 'touched' }]);
    await waitFor(() => all.heard.updated.length > 0 && cursor.heard.updated.length > 0, 10_000, 'the updates');
    expect(all.heard.updated).toEqual(['xiaozhi-tray://alpha/note://shared']);
    expect(cursor.heard.updated).toEqual(['note://shared']);
    // The other session subscribed to beta's only: it hears beta's update, never alpha's (sent to it before, if at all).
    await other.client.subscribeResource({ uri: 'xiaozhi-tray://beta/note://shared' });
    await other.client.callTool({ name: 'beta_touch', arguments: {} });
    await waitFor(() => other.heard.updated.length > 0, 10_000, "beta's update");
    expect(other.heard.updated).toEqual(['xiaozhi-tray://beta/note://shared']);
    expect(all.heard.updated).toEqual(['xiaozhi-tray://alpha/note://shared']);

    // Once every session let go, the server is told: its update is no longer announced.
    await all.client.unsubscribeResource({ uri: 'xiaozhi-tray://alpha/note://shared' });
    await cursor.client.unsubscribeResource({ uri: 'note://shared' });
    const untouched = (await all.client.callTool({ name: 'alpha_touch', arguments: {} })) as CallToolResult;
    expect(untouched.content).toEqual([{ type: 'text', text: 'touched (nobody subscribed)' }]);
  }, 30_000);

  it("forwards the level asked to the set's servers, and their log messages to the sessions that include them and asked", async () => {
    const url = await start();
    const cursor = await session(url, 'cursor');
    const vscode = await session(url, 'vscode');
    const all = await session(url);
    const quiet = await session(url);
    // Not asked: the server sends nothing at all.
    const before = (await cursor.client.callTool({ name: 'log', arguments: { level: 'info', text: 'early' } })) as CallToolResult;
    expect(before.content).toEqual([{ type: 'text', text: 'not sent (level none)' }]);

    await cursor.client.setLoggingLevel('info');
    await vscode.client.setLoggingLevel('info');
    await all.client.setLoggingLevel('error');
    const sent = (await cursor.client.callTool({ name: 'log', arguments: { level: 'info', text: 'hello' } })) as CallToolResult;
    expect(sent.content).toEqual([{ type: 'text', text: 'sent' }]);
    // The server was asked for info (the most verbose asked of it): debug does not leave it.
    const debug = (await cursor.client.callTool({ name: 'log', arguments: { level: 'debug', text: 'noise' } })) as CallToolResult;
    expect(debug.content).toEqual([{ type: 'text', text: 'not sent (level info)' }]);
    await all.client.callTool({ name: 'alpha_log', arguments: { level: 'error', text: 'broken' } });
    await waitFor(() => cursor.heard.logs.length >= 2 && all.heard.logs.length >= 1, 10_000, 'the log messages');
    expect(cursor.heard.logs).toEqual([
      { level: 'info', logger: 'alpha/notes', data: 'alpha: hello' },
      { level: 'error', logger: 'alpha/notes', data: 'alpha: broken' },
    ]);
    // The session that asked for errors hears the error only.
    expect(all.heard.logs).toEqual([{ level: 'error', logger: 'alpha/notes', data: 'alpha: broken' }]);

    await vscode.client.callTool({ name: 'log', arguments: { level: 'warning', text: 'careful' } });
    await waitFor(() => vscode.heard.logs.length >= 1, 10_000, "beta's message");
    expect(vscode.heard.logs).toEqual([{ level: 'warning', logger: 'beta/notes', data: 'beta: careful' }]);
    // Neither beta's message reached the session whose set is alpha's, nor any the session that never asked.
    expect(cursor.heard.logs.map((m) => m.data)).toEqual(['alpha: hello', 'alpha: broken']);
    expect(quiet.heard.logs).toEqual([]);
    const logged = logBook!.entries().map((e) => e.message);
    expect(logged.some((m) => m.includes('server "beta" logged (warning, notes): beta: careful'))).toBe(true);
  }, 30_000);

  it("tells a session its set's servers changed, and serves it the new set's resources", async () => {
    const url = await start();
    const cursor = await session(url, 'cursor');
    const vscode = await session(url, 'vscode');
    const setA = (await bridge!.api.getSettings()).toolSets.find((set) => set.name === 'a')!;
    await bridge!.api.updateToolSet({ id: setA.id, servers: ['alpha', 'beta'] });
    await waitFor(() => cursor.heard.resourcesChanged > 0 && cursor.heard.promptsChanged > 0, 10_000, 'list_changed at /mcp/cursor');
    expect((await cursor.client.listResources()).resources.map((r) => r.uri)).toContain('xiaozhi-tray://beta/note://shared');
    expect((await cursor.client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['alpha_greet', 'beta_greet']);
    expect(vscode.heard.resourcesChanged).toBe(0);
  }, 30_000);

  it('asks a restarted server again for the subscriptions and the log level its sessions hold', async () => {
    const url = await start();
    const cursor = await session(url, 'cursor');
    await cursor.client.subscribeResource({ uri: 'note://shared' });
    await cursor.client.setLoggingLevel('warning');
    await bridge!.api.restartServer({ name: 'alpha' });
    await waitFor(async () => (await cursor.client.listTools()).tools.some((t) => t.name === 'touch'), 10_000, 'alpha back');
    await waitFor(
      async () => {
        const result = (await cursor.client.callTool({ name: 'log', arguments: { level: 'warning', text: 'back' } })) as CallToolResult;
        return result.content[0]?.type === 'text' && result.content[0].text === 'sent';
      },
      10_000,
      'the level asked again',
    );
    const touched = (await cursor.client.callTool({ name: 'touch', arguments: {} })) as CallToolResult;
    expect(touched.content).toEqual([{ type: 'text', text: 'touched' }]);
    await waitFor(() => cursor.heard.updated.length > 0 && cursor.heard.logs.length > 0, 10_000, 'the update and the message');
    expect(cursor.heard.updated).toEqual(['note://shared']);
    expect(cursor.heard.logs[0]).toEqual({ level: 'warning', logger: 'alpha/notes', data: 'alpha: back' });
  }, 30_000);

  it('tells the sessions whose set includes a server that its resources and prompts changed, and when it stops', async () => {
    const url = await start();
    const all = await session(url);
    const cursor = await session(url, 'cursor');
    const vscode = await session(url, 'vscode');
    await all.client.callTool({ name: 'alpha_add', arguments: {} });
    await waitFor(() => all.heard.resourcesChanged > 0 && all.heard.promptsChanged > 0, 10_000, 'list_changed at /mcp');
    await waitFor(() => cursor.heard.resourcesChanged > 0 && cursor.heard.promptsChanged > 0, 10_000, 'list_changed at /mcp/cursor');
    expect((await cursor.client.listResources()).resources.map((r) => r.uri)).toContain('note://alpha/added-0');
    expect((await all.client.listPrompts()).prompts.map((p) => p.name)).toContain('added_0');

    // beta stopping changes what the sessions including it are offered; alpha's set is not told.
    const cursorHeard = cursor.heard.resourcesChanged;
    await bridge!.api.stopServer({ name: 'beta' });
    await waitFor(() => vscode.heard.resourcesChanged > 0 && vscode.heard.promptsChanged > 0, 10_000, 'list_changed at /mcp/vscode');
    expect((await vscode.client.listResources()).resources).toEqual([]);
    expect((await all.client.listResources()).resources.map((r) => r.uri)).toContain('note://shared');
    expect(cursor.heard.resourcesChanged).toBe(cursorHeard);
  }, 30_000);
});
