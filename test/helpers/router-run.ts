import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'vitest';

import type { SettingsInput } from '../../src/shared/settings';
import { type Harness, startServing } from './bridge-harness';
import { catalogNames, catalogServer, type Query } from './catalogs';
import type { FakeSession, FakeXiaozhi } from './fake-xiaozhi';

/** One endpoint ("home", id e1) in router mode in front of real servers, with its xiaozhi session open. */
export interface RouterRun {
  xiaozhi: FakeXiaozhi;
  harness: Harness;
  session: FakeSession;
  /** A scratch folder for the servers' files, removed by `stop`. */
  work: string;
  stop(): Promise<void>;
}

type EndpointInput = NonNullable<SettingsInput['endpoints']>[number];
type ServerInput = NonNullable<SettingsInput['servers']>[number];

export async function startRouterRun(servers: (work: string) => ServerInput[], endpoint: Partial<EndpointInput> = {}): Promise<RouterRun> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-router-'));
  const { xiaozhi, harness, session } = await startServing({ servers: servers(work) }, { toolMode: 'router', ...endpoint });
  return {
    xiaozhi,
    harness,
    session,
    work,
    stop: async () => {
      await harness.bridge.stop();
      await xiaozhi.close();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The 10 catalog servers (300 tools) behind one router-mode endpoint, `get_current_time` pinned. */
export interface CatalogRouterRun extends RouterRun {
  /** `server/tool` → the name it is served under. */
  exposed: Map<string, string>;
  /** The file where a catalog server writes each call it receives. */
  callLog(server: string): string;
  /** Calls a tool as the model does: what it reads back. */
  call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; content: unknown[]; raw: string }>;
}

export async function startCatalogRouterRun(): Promise<CatalogRouterRun> {
  const callLog = (work: string, server: string) => path.join(work, `${server}.calls`);
  const run = await startRouterRun(
    (work) =>
      catalogNames().map((name) => catalogServer(name, { callLog: callLog(work, name), env: { CATALOG_LARGE_REPLY: 'read_text_file' } })),
    { pinned: ['get_current_time'] },
  );
  const exposed = new Map<string, string>();
  for (const tool of await run.harness.bridge.api.getCatalog()) exposed.set(`${tool.server}/${tool.originalName}`, tool.name);
  let id = 1;
  const call: CatalogRouterRun['call'] = async (name, args) => {
    const response = await run.session.request(id++, 'tools/call', { name, arguments: args });
    return {
      text: response.result?.content?.[0]?.text ?? '',
      isError: response.result?.isError === true,
      content: response.result?.content ?? [],
      raw: JSON.stringify(response),
    };
  };
  return { ...run, exposed, callLog: (server) => callLog(run.work, server), call };
}

/** find_tools, asked `query` through the endpoint, has one of its right tools in its top 3, each with a schema and a description. */
export async function expectFoundInTop3(run: CatalogRouterRun, query: Query): Promise<void> {
  const result = await run.call('find_tools', { query: query.query, limit: 3 });
  expect(result.isError).toBe(false);
  const answer = JSON.parse(result.text) as {
    tools: { name: string; server: string; description: string; inputSchema: { type: string } }[];
  };
  expect(answer.tools.length).toBeLessThanOrEqual(3);
  const right = query.expect.map((key) => run.exposed.get(key));
  expect(
    answer.tools.map((t) => t.name).some((name) => right.includes(name)),
    `got ${answer.tools.map((t) => `${t.server}/${t.name}`).join(', ')}`,
  ).toBe(true);
  for (const tool of answer.tools) {
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.description.length).toBeGreaterThan(0);
  }
}
