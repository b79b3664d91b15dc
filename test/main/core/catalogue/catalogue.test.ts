import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import data from '../../../../src/main/core/catalogue/catalogue.json';
import { fetchRegistry } from '../../../../src/main/core/catalogue/registry-catalogue';
import {
  CatalogueCategorySchema,
  CatalogueEntrySchema,
  CatalogueFileSchema,
  placeholdersOf,
  serverFromEntry,
} from '../../../../src/shared/catalogue';
import { translator } from '../../../../src/shared/i18n/translate';
import { logMessage } from '../../../../src/shared/problem-words';
import { ServerSettingsSchema } from '../../../../src/shared/settings';
import { fastSupervision, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { registryServers, type RegistryStandIn, startRegistryStandIn } from '../../../helpers/registry-standin';
import { waitFor } from '../../../helpers/wait';

let harness: Harness | undefined;
let registry: RegistryStandIn | undefined;
let dir = '';
const servers: http.Server[] = [];
afterEach(async () => {
  await harness?.bridge.stop();
  await registry?.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  harness = undefined;
  registry = undefined;
  dir = '';
});

const shipped = CatalogueFileSchema.parse(data).entries;

describe('the shipped catalogue', () => {
  it('shows Windows paths with one backslash: no text was JSON-escaped twice', () => {
    const texts = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.flatMap(texts)
          : typeof value === 'object' && value !== null
            ? Object.values(value).flatMap(texts)
            : [];
    const doubled = shipped.flatMap((entry) =>
      texts(entry)
        .filter((text) => text.includes('\\\\'))
        .map((text) => `${entry.id}: ${text}`),
    );
    expect(doubled).toEqual([]);
    const folder = shipped.flatMap((entry) => entry.values).find((v) => v.hint?.zh.includes('笔记'));
    expect(folder?.hint?.zh).toMatch(/^例如 \/Users\/me\/Documents 或 D:\\笔记；/);
  });

  it('is valid, entry by entry, with what users of xiaozhi ask for', () => {
    expect(CatalogueFileSchema.safeParse(data).success).toBe(true);
    const ids = new Set<string>();
    for (const raw of (data as { entries: unknown[] }).entries) {
      const entry = CatalogueEntrySchema.parse(raw);
      expect(ids.has(entry.id), `duplicate id ${entry.id}`).toBe(false);
      ids.add(entry.id);
      // Every placeholder is a value it asks for, and every value it asks for is used.
      expect(placeholdersOf(entry).sort(), entry.id).toEqual(entry.values.map((v) => v.id).sort());
      // Chinese and English both, and different where the language differs.
      expect(entry.description.zh, entry.id).toMatch(/[\u4e00-\u9fff]/);
      // What it asks for is named in Chinese too ("需要：API Host" read as English in the Chinese window).
      for (const value of entry.values) expect(value.label.zh, `${entry.id} ${value.id}`).toMatch(/[\u4e00-\u9fff]/);
      expect(entry.homepage, entry.id).toMatch(/^https:\/\//);
      // Filled with sample values, it is a server our settings accept.
      const values = Object.fromEntries(entry.values.map((v) => [v.id, v.kind === 'url' ? 'https://example.com/sse' : 'sample']));
      expect(ServerSettingsSchema.safeParse(serverFromEntry(entry, values)).success, entry.id).toBe(true);
      if (entry.run.transport === 'stdio') expect(['npx', 'uvx']).toContain(entry.run.command);
    }
    const categories = new Set(shipped.map((e) => e.category));
    // Every category has a shipped entry, but those only the registry fills.
    for (const wanted of CatalogueCategorySchema.options.filter((c) => !['food', 'developer', 'other'].includes(c))) {
      expect(categories, wanted).toContain(wanted);
    }
    expect(
      shipped.some((e) => e.id === 'amap-maps') && shipped.some((e) => e.id === 'baidu-map') && shipped.some((e) => e.id === '12306'),
    ).toBe(true);
  });

  it('fills a template: values go where they belong, optional ones left empty are dropped', () => {
    const memory = shipped.find((e) => e.id === 'memory')!;
    expect(serverFromEntry(memory, {})).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: {} });
    expect(serverFromEntry(memory, { memoryFile: '/tmp/m.json' }).env).toEqual({ MEMORY_FILE_PATH: '/tmp/m.json' });
    const ha = shipped.find((e) => e.id === 'home-assistant')!;
    expect(serverFromEntry(ha, { haUrl: 'http://ha.local:8123', haToken: 'tok' })).toMatchObject({
      transport: 'sse',
      url: 'http://ha.local:8123/mcp_server/sse',
      headers: { Authorization: 'Bearer tok' },
    });
  });
});

describe('a catalogue entry filled with what a person pastes', () => {
  it('keeps a key whole in an address (+ / & # = and spaces), and an address pasted with a slash at its end working', () => {
    const amap = shipped.find((e) => e.id === 'amap-maps-remote')!;
    for (const key of ['ab+c/d==', 'a&b=1#x', 'a b']) {
      const url = new URL((serverFromEntry(amap, { amapKey: key }) as { url: string }).url);
      // The server reads its key back whole: '+' is no space, '&' starts no other parameter, '#' cuts nothing off.
      expect([...url.searchParams]).toEqual([['key', key]]);
      expect(url.hash).toBe('');
    }
    const ha = shipped.find((e) => e.id === 'home-assistant')!;
    // The address as a browser shows it, a slash at the end: Home Assistant answers 404 at '//mcp_server/sse'.
    expect(serverFromEntry(ha, { haUrl: 'http://ha.local:8123/', haToken: 'tok' })).toMatchObject({
      url: 'http://ha.local:8123/mcp_server/sse',
      headers: { Authorization: 'Bearer tok' },
    });
  });
});

describe('the catalogue from the MCP registry', () => {
  it('reads every page of a local stand-in, keeps what it can run, and caches it', async () => {
    registry = await startRegistryStandIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-cat-'));
    harness = makeBridge({}, fastSupervision, { registryUrl: registry.url, cacheDir: dir });
    const before = await harness.bridge.api.getCatalogue({});
    expect(before.refreshedAt).toBeUndefined();
    expect(registry.requests).toHaveLength(0);

    const catalogue = await harness.bridge.api.getCatalogue({ refresh: 'now' });
    expect(registry.requests.length).toBe(3);
    expect(registry.requests[0]).toMatch(/^\/v0\/servers\?limit=100&version=latest$/);
    const fromRegistry = catalogue.entries.filter((e) => e.source === 'registry');
    expect(fromRegistry.map((e) => e.id).sort()).toEqual([
      'registry/com.example/remote',
      'registry/io.github.example/notes',
      'registry/io.github.example/weather',
    ]);
    const weather = fromRegistry.find((e) => e.id.endsWith('weather'))!;
    expect(weather).toMatchObject({
      title: { en: 'Example Weather' },
      homepage: 'https://github.com/example/weather',
      run: { command: 'npx', args: ['-y', '@example/weather-mcp@1.2.0'], env: { WEATHER_API_KEY: '{WEATHER_API_KEY}' } },
    });
    expect(weather.values[0]).toMatchObject({ kind: 'secret', required: true, label: { en: 'Weather API key', zh: 'Weather API 密钥' } });
    const notes = fromRegistry.find((e) => e.id.endsWith('notes'))!;
    expect(notes.run).toMatchObject({ command: 'uvx', args: ['notes-mcp==0.3.0', '{notes_dir}'] });
    const remote = fromRegistry.find((e) => e.id.endsWith('remote'))!;
    expect(serverFromEntry(remote, { Authorization: 'abc' })).toMatchObject({
      transport: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer abc' },
    });
    // The shipped memory entry stays the only memory entry.
    expect(
      catalogue.entries.filter((e) => e.run.transport === 'stdio' && e.run.args.includes('@modelcontextprotocol/server-memory')),
    ).toHaveLength(1);
    expect(catalogue.refreshedAt).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(dir, 'registry-catalogue.json'))).toBe(true);

    // A new bridge (the next start) has it from the cache, without asking the registry.
    await registry.close();
    registry = undefined;
    const again = makeBridge({}, fastSupervision, {
      registryUrl: (JSON.parse(fs.readFileSync(path.join(dir, 'registry-catalogue.json'), 'utf8')) as { registry: string }).registry,
      cacheDir: dir,
    });
    const cached = await again.bridge.api.getCatalogue({ refresh: 'ifStale' });
    expect(cached.entries.filter((e) => e.source === 'registry')).toHaveLength(3);
    expect(cached.refreshError).toBeUndefined();
    await again.bridge.stop();
  });

  it('is read at its first look, not when the bridge starts: a bridge serving xiaozhi alone keeps no catalogue in memory', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-cat-'));
    const registryUrl = 'http://127.0.0.1:9/never-asked';
    harness = makeBridge({}, fastSupervision, { registryUrl, cacheDir: dir });
    // Written after the start: a catalogue read at the start would not have it.
    const entry = {
      ...shipped[0]!,
      id: 'registry/io.github.example/later',
      source: 'registry',
      run: { ...shipped[0]!.run, args: ['later-mcp'] },
    };
    fs.writeFileSync(
      path.join(dir, 'registry-catalogue.json'),
      JSON.stringify({ fetchedAt: Date.now(), registry: registryUrl, entries: [entry] }),
    );
    const catalogue = await harness.bridge.api.getCatalogue({});
    expect(catalogue.entries.filter((e) => e.source === 'registry').map((e) => e.id)).toEqual(['registry/io.github.example/later']);
    expect(catalogue.entries).toHaveLength(shipped.length + 1);
  });

  it('falls back to the shipped list (and says why) when the registry cannot be read', async () => {
    registry = await startRegistryStandIn();
    registry.failWith(503);
    harness = makeBridge({}, fastSupervision, { registryUrl: registry.url });
    const catalogue = await harness.bridge.api.getCatalogue({ refresh: 'now' });
    expect(catalogue.entries).toHaveLength(shipped.length);
    expect(catalogue.refreshError).toContain('HTTP 503');
    // Said in the log page's language: a Chinese reader met this line in English.
    const said = harness.logBook.entries().find((e) => e.message.includes('could not read the MCP registry'))!;
    // Its cause in plain words too (before: "（the MCP registry answered HTTP 503 for /v0/servers）"); the English line keeps it raw.
    expect(logMessage(translator('zh-CN'), said)).toBe(
      '目录：暂时读不到在线目录，先用应用自带的服务列表。在线目录的网站暂时出了问题（错误代码 503）。',
    );
    expect(said.message).toContain('HTTP 503');
  });
});

/** A plain HTTP server on 127.0.0.1 with this handler, closed after the test. */
async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('the registry answer is bounded and stays on the registry', () => {
  it('stops reading a page past 8 MB as it streams: a 64 MB body is never read to its end', async () => {
    const total = 64 * 1024 * 1024;
    let sent = 0;
    let finished = false;
    let closed = false;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('finish', () => (finished = true));
      res.on('close', () => (closed = true));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (sent >= total) res.end();
      };
      res.write('{"servers":[');
      pump();
    });
    harness = makeBridge({}, fastSupervision, { registryUrl: url });
    const catalogue = await harness.bridge.api.getCatalogue({ refresh: 'now' });
    expect(catalogue.refreshError).toBe('the MCP registry sent a page larger than 8 MB');
    expect(catalogue.entries).toHaveLength(shipped.length);
    await waitFor(() => closed, 30_000, 'the registry connection to close');
    // Read to its end before: the whole body was buffered, then measured.
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(total / 2);
  });

  it('refuses a page that says it is larger than 8 MB without waiting for it', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * 1024 * 1024) });
      res.write('{"servers":[');
    });
    await expect(fetchRegistry({ baseUrl: url, maxPages: 1, timeoutMs: 20_000 })).rejects.toThrow(
      'the MCP registry sent a page larger than 8 MB',
    );
  });

  it('follows no redirect to another origin (another port), and says where it was sent', async () => {
    registry = await startRegistryStandIn();
    const elsewhere = registry.url;
    const url = await serve((req, res) => void res.writeHead(302, { location: `${elsewhere}${req.url}` }).end());
    harness = makeBridge({}, fastSupervision, { registryUrl: url });
    const catalogue = await harness.bridge.api.getCatalogue({ refresh: 'now' });
    expect(catalogue.refreshError).toBe(`the MCP registry redirected to another site (${elsewhere}); only ${url} is read`);
    expect(catalogue.entries.filter((e) => e.source === 'registry')).toHaveLength(0);
    expect(registry.requests).toEqual([]);
  });

  it('follows a redirect within the registry itself', async () => {
    const url = await serve((req, res) => {
      const at = new URL(req.url ?? '/', 'http://localhost');
      if (at.pathname === '/v0/servers') return void res.writeHead(301, { location: `/moved/v0/servers${at.search}` }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ servers: registryServers, metadata: {} }));
    });
    const entries = await fetchRegistry({ baseUrl: url, maxPages: 2, timeoutMs: 30_000 });
    expect(entries.map((e) => e.id)).toContain('registry/io.github.example/weather');
  });
});
