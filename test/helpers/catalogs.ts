import fs from 'node:fs';
import path from 'node:path';

import { assignExposedNames, toolKey } from '../../src/main/core/hub/tool-names';
import type { ServerSettings } from '../../src/shared/settings';

/**
 * Realistic tool catalogs (10 servers, 300 tools, English and Chinese) served by
 * `test/fixtures/catalog-server.mjs`, and the queries a user would say to find them.
 */
const DIR = path.resolve(__dirname, '../fixtures/catalogs');
export const CATALOG_SERVER = path.resolve(__dirname, '../fixtures/catalog-server.mjs');

export interface CatalogTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface Catalog {
  name: string;
  instructions: string;
  tools: CatalogTool[];
}

export interface Query {
  query: string;
  /** `server/tool` of every right answer. */
  expect: string[];
}

export function catalogNames(): string[] {
  return fs
    .readdirSync(path.join(DIR, 'servers'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

export function loadCatalog(name: string): Catalog {
  return JSON.parse(fs.readFileSync(path.join(DIR, 'servers', `${name}.json`), 'utf8')) as Catalog;
}

export type QueryFile = 'queries.json' | 'queries-heldout.json' | 'queries-everyday.json';

export function loadQueries(file: QueryFile = 'queries.json'): Query[] {
  return (JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as { queries: Query[] }).queries;
}

/** Every tool of every catalog, as the search sees it (names as served when none collide). */
export function catalogEntries(): { name: string; server: string; description: string; inputSchema: Record<string, unknown> }[] {
  return catalogNames().flatMap((server) => loadCatalog(server).tools.map((tool) => ({ ...tool, server })));
}

/**
 * A new user's modest catalog: the tool lists of our fixture server and of the published
 * server-everything and server-memory as captured by `capture-published.mjs`, plus the
 * server-filesystem-like catalog. 47 tools, served under their exposed names (`echo` collides).
 */
export const EVERYDAY_PUBLISHED = ['everything', 'fixture', 'memory'] as const;

export function loadPublished(name: (typeof EVERYDAY_PUBLISHED)[number]): Catalog {
  return JSON.parse(fs.readFileSync(path.join(DIR, 'published', `${name}.json`), 'utf8')) as Catalog;
}

export function everydayCatalogEntries(): {
  name: string;
  original: string;
  server: string;
  description: string;
  inputSchema: Record<string, unknown>;
}[] {
  const tools = [
    ...EVERYDAY_PUBLISHED.map((server) => ({ server, catalog: loadPublished(server) })),
    { server: 'filesystem', catalog: loadCatalog('filesystem') },
  ].flatMap(({ server, catalog }) => catalog.tools.map((tool) => ({ ...tool, server })));
  const names = assignExposedNames(
    tools.map((t) => ({ server: t.server, tool: t.name })),
    false,
  );
  return tools.map((tool) => ({ ...tool, name: names.get(toolKey(tool.server, tool.name)) as string, original: tool.name }));
}

/** A server running the catalog-server fixture with one catalog; `callLog` records every call it receives. */
export function catalogServer(
  name: string,
  options: { callLog?: string; env?: Record<string, string>; extra?: Partial<ServerSettings> } = {},
): ServerSettings {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [CATALOG_SERVER],
    env: {
      CATALOG_FILE: path.join(DIR, 'servers', `${name}.json`),
      ...(options.callLog ? { CATALOG_CALL_LOG: options.callLog } : {}),
      ...options.env,
    },
    enabled: true,
    ...options.extra,
  } as ServerSettings;
}
