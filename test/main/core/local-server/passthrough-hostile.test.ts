import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { clientToken } from '../../../../src/main/core/local-server/client-tokens';
import { MAX_SESSION_SUBSCRIPTIONS } from '../../../../src/main/core/local-server/passthrough/resources';
import type { StdioServerSettings } from '../../../../src/shared/settings';
import { type HubClient, localHubs } from '../../../helpers/local-hub';
import { settledMemoryMb } from '../../../helpers/settled-memory';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

// Attacks on the passthrough by a hostile server (test/fixtures/hostile-resource-server.mjs) and hostile clients.
const TOKEN = 'passthrough-hostile-token-0123456789';
const HOSTILE = path.resolve(__dirname, '../../../fixtures/hostile-resource-server.mjs');
const hub = localHubs(TOKEN, 'xt-pass-hostile-');

function hostile(name: string, env: Record<string, string> = {}): StdioServerSettings {
  return { name, transport: 'stdio', command: process.execPath, args: [HOSTILE], env: { FIXTURE_NAME: name, ...env }, enabled: true };
}

/** The bridge with these servers; cursor's set is the first server's alone, /mcp all. */
async function start(servers: StdioServerSettings[]): Promise<string> {
  const started = await hub.start(
    {
      servers,
      toolSets: [{ name: 'a', servers: servers.slice(0, 1).map((s) => s.name) }],
      localServer: { clients: { cursor: { toolSet: 'a' } } },
    },
    { listChangedDebounceMs: 20 },
  );
  return started.url;
}

async function session(url: string, client = ''): Promise<HubClient> {
  const opened = await hub.connect(url, client, { name: `attacker-${client || 'all'}` });
  await opened.client.listTools();
  return opened;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** What the server says it holds subscriptions to (its tool "held", through a session of all). */
async function heldBy(client: Client): Promise<string[]> {
  return JSON.parse(textOf(await client.callTool({ name: 'held' }))) as string[];
}

describe('the passthrough under attack', () => {
  it('a resource subscribed twice at once and unsubscribed once is let go by the server', async () => {
    const url = await start([hostile('alpha', { HOSTILE_SUBSCRIBE_DELAY_MS: '300' })]);
    const { client } = await session(url);
    await Promise.all([client.subscribeResource({ uri: 'note://alpha/r0' }), client.subscribeResource({ uri: 'note://alpha/r0' })]);
    expect(await heldBy(client)).toEqual(['note://alpha/r0']);
    await client.unsubscribeResource({ uri: 'note://alpha/r0' });
    await waitFor(async () => (await heldBy(client)).length === 0, 5_000, 'the server to be told to let go');
  });

  it('a client that subscribes and goes before the answer leaves no subscription behind', async () => {
    const url = await start([hostile('alpha', { HOSTILE_SUBSCRIBE_DELAY_MS: '500' })]);
    const { client: watcher } = await session(url);
    const { client, transport } = await session(url, 'cursor');
    const asked = client.subscribeResource({ uri: 'note://alpha/r0' }).catch(() => undefined);
    await waitFor(async () => textOf(await watcher.callTool({ name: 'asked' })) === '1/0', 5_000, 'the subscribe to reach the server');
    await transport.terminateSession();
    await client.close();
    await asked;
    await waitFor(async () => textOf(await watcher.callTool({ name: 'asked' })) === '1/1', 5_000, 'the subscribe to be answered');
    // The session is gone: its subscription must not outlive it (the server told, nothing kept to ask again).
    await waitFor(async () => (await heldBy(watcher)).length === 0, 5_000, 'the subscription of the session gone to be dropped');
  });

  it(
    'lists 5,000 resources beside a server of 5,000 templates in seconds, and reads through a template past those matched',
    async () => {
      const url = await start([
        hostile('alpha', { HOSTILE_TEMPLATES: '5000', HOSTILE_PAGE_SIZE: '500', HOSTILE_RESOURCES: '0' }),
        hostile('beta', { HOSTILE_RESOURCES: '5000', HOSTILE_PAGE_SIZE: '500' }),
      ]);
      const { client } = await session(url);
      // Before: 67 s on this machine, the event loop held 2.7 s a page.
      const started = Date.now();
      let cursor: string | undefined;
      let listed = 0;
      do {
        const page = await client.listResources(cursor ? { cursor } : {});
        listed += page.resources.length;
        cursor = page.nextCursor;
      } while (cursor);
      expect(listed).toBe(5000);
      expect(Date.now() - started).toBeLessThan(scaled(10_000));
      let last: string | undefined;
      cursor = undefined;
      do {
        const page = await client.listResourceTemplates(cursor ? { cursor } : {});
        last = page.resourceTemplates.at(-1)?.uriTemplate ?? last;
        cursor = page.nextCursor;
      } while (cursor);
      expect(last).toBe('xiaozhi-tray://alpha/note://alpha/t4999/{id}');
      const read = await client.readResource({ uri: 'xiaozhi-tray://alpha/note://alpha/t4999/x' });
      expect(read.contents[0]).toMatchObject({ text: 'read note://alpha/t4999/x of alpha' });
    },
    scaled(120_000),
  );

  it(
    'a client subscribing to ever new URIs is refused past a bound, and the server holds no more than it',
    async () => {
      const url = await start([hostile('alpha')]);
      const { client } = await session(url, 'cursor');
      const refused: string[] = [];
      for (let i = 0; i < MAX_SESSION_SUBSCRIPTIONS + 20; i++)
        await client
          .subscribeResource({ uri: `xiaozhi-tray://alpha/note://alpha/x${i}` })
          .catch((e: Error) => void refused.push(e.message));
      expect(refused).toHaveLength(20);
      expect(refused[0]).toMatch(/subscri.*500/i);
      expect(await heldBy(client)).toHaveLength(MAX_SESSION_SUBSCRIPTIONS);
      // Letting go of one makes room for another.
      await client.unsubscribeResource({ uri: 'xiaozhi-tray://alpha/note://alpha/x0' });
      await client.subscribeResource({ uri: 'note://alpha/r0' });
    },
    scaled(60_000),
  );

  it(
    'a flood of log messages to a client that stopped reading does not pile up in memory',
    async () => {
      const url = await start([hostile('alpha')]);
      const { client } = await session(url);
      const auth = {
        Authorization: `Bearer ${clientToken(TOKEN, '')}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const init = await fetch(url, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stall', version: '1' } },
        }),
      });
      const sid = init.headers.get('mcp-session-id') as string;
      await init.text();
      const h = { ...auth, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
      await (
        await fetch(url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
      ).text();
      await (
        await fetch(url, {
          method: 'POST',
          headers: h,
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'debug' } }),
        })
      ).text();
      const http = await import('node:http');
      const u = new URL(url);
      await new Promise<void>((resolve) => {
        const req = http.request(
          { host: u.hostname, port: u.port, path: u.pathname, method: 'GET', headers: { ...h, accept: 'text/event-stream' } },
          (res) => {
            res.pause();
            res.socket.pause();
            resolve();
          },
        );
        req.end();
      });
      const flood = async (rounds: number) => {
        for (let i = 0; i < rounds; i++) await client.callTool({ name: 'flood', arguments: { count: 200, bytes: 60_000 } });
        return settledMemoryMb();
      };
      // The first 120 MB of messages fill the socket's buffers; after them, 240 MB more must not stay with us.
      // Kept memory is read after a collection: resident memory lags behind garbage by tens of MB under load.
      // Before the fix every message stayed: about +240 MB here.
      const settled = await flood(10);
      const t = Date.now();
      expect((await flood(20)) - settled).toBeLessThan(60);
      expect(Date.now() - t).toBeLessThan(scaled(30_000));
    },
    scaled(60_000),
  );

  it('a server announcing its resources changed 5,000 times is told to a client a few times, not 5,000', async () => {
    const url = await start([hostile('alpha')]);
    const { client } = await session(url);
    let heard = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void heard++);
    await client.callTool({ name: 'changed', arguments: { count: 5000 } });
    // The last announcement is told (after the flood), whatever is coalesced before it.
    await waitFor(() => heard > 0, 5_000, 'the change to be told');
    await client.callTool({ name: 'changed', arguments: { count: 1 } });
    const after = heard;
    await waitFor(() => heard > after, 5_000, 'the next change to be told');
    expect(heard).toBeLessThan(50);
  });

  it("a client of one set cannot read, subscribe to or complete another set's server, whatever URI it guesses", async () => {
    const url = await start([hostile('alpha', { HOSTILE_TEMPLATES: '1' }), hostile('beta', { HOSTILE_TEMPLATES: '1' })]);
    const { client } = await session(url, 'cursor');
    await expect(client.readResource({ uri: 'xiaozhi-tray://beta/note://beta/r0' })).rejects.toThrow(/not found/i);
    await expect(client.subscribeResource({ uri: 'xiaozhi-tray://beta/note://beta/r0' })).rejects.toThrow(/not found/i);
    // A plain URI goes to the set's only server with resources: alpha answers it, beta never sees it.
    const plain = await client.readResource({ uri: 'note://beta/r0' });
    expect(plain.contents[0]).toMatchObject({ text: 'read note://beta/r0 of alpha' });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['note://alpha/r0']);
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'xiaozhi-tray://beta/note://beta/t0/{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(completion.completion.values).toEqual([]);
    await expect(client.getPrompt({ name: 'beta_anything' })).rejects.toThrow(/unknown prompt/i);
  });
});
