import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { type Harness, makeBridge, tearDown } from '../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../helpers/fake-xiaozhi';

const pkg = (name: string) => path.resolve(__dirname, `../../../node_modules/@modelcontextprotocol/${name}/dist/index.js`);
let xiaozhi: FakeXiaozhi | undefined;
let harness: Harness | undefined;
const memoryFile = path.join(os.tmpdir(), `xt-memory-${process.pid}.jsonl`);
afterEach(async () => {
  fs.rmSync(memoryFile, { force: true });
  await tearDown(harness, xiaozhi);
  harness = xiaozhi = undefined;
});

describe('published MCP servers through the bridge', () => {
  it('serves server-everything and server-memory to an endpoint, and calls them', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({
      endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }],
      servers: [
        { name: 'everything', transport: 'stdio', command: process.execPath, args: [pkg('server-everything'), 'stdio'] },
        {
          name: 'memory',
          transport: 'stdio',
          command: process.execPath,
          args: [pkg('server-memory')],
          env: { MEMORY_FILE_PATH: memoryFile },
        },
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const { tools } = await session.listAllTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'create_entities', 'read_graph']));

    const sum = await session.request(1, 'tools/call', { name: 'get-sum', arguments: { a: 2, b: 40 } });
    expect(sum.result?.content?.[0]?.text).toMatch(/42/);

    const image = await session.request(2, 'tools/call', { name: 'get-tiny-image', arguments: {} });
    expect(image.result?.content).toHaveLength(1);
    expect(image.result?.content?.[0]?.text).toMatch(/\[image: image\/png/);

    await session.request(3, 'tools/call', {
      name: 'create_entities',
      arguments: { entities: [{ name: '小智', entityType: 'assistant', observations: ['说中文'] }] },
    });
    const graph = await session.request(4, 'tools/call', { name: 'read_graph', arguments: {} });
    expect(graph.result?.content?.[0]?.text).toContain('小智');
  });
});
