import fs from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CATALOG_SERVER } from '../../helpers/catalogs';
import { type RouterRun, startRouterRun } from '../../helpers/router-run';

/**
 * A server of the user's own may have tools called call_tool or find_tools: MCP gateways with a
 * search layer of their own (mcphub's smart routing serves search_tools and call_tool). In router
 * mode they are still reachable through call_tool.
 */
let run: RouterRun | undefined;
let id = 1;

beforeAll(async () => {
  run = await startRouterRun((work) => {
    const catalog = path.join(work, 'gateway.json');
    fs.writeFileSync(
      catalog,
      JSON.stringify({
        name: 'gateway',
        instructions: '',
        tools: [
          {
            name: 'search_tools',
            description: 'Search the tools of the gateway',
            inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
          },
          {
            name: 'call_tool',
            description: 'Call a tool of the gateway',
            inputSchema: {
              type: 'object',
              properties: { toolName: { type: 'string' }, arguments: { type: 'object' } },
              required: ['toolName'],
            },
          },
          {
            name: 'find_tools',
            description: 'Find tools of the gateway',
            inputSchema: { type: 'object', properties: { keywords: { type: 'string' } }, required: ['keywords'] },
          },
        ],
      }),
    );
    return [
      {
        name: 'gateway',
        transport: 'stdio',
        command: process.execPath,
        args: [CATALOG_SERVER],
        env: { CATALOG_FILE: catalog, CATALOG_CALL_LOG: path.join(work, 'gateway.calls') },
        enabled: true,
      },
    ];
  });
}, 60_000);

afterAll(async () => {
  await run?.stop();
});

async function call(name: string, args: Record<string, unknown>) {
  const response = await (run as RouterRun).session.request(id++, 'tools/call', { name, arguments: args });
  return { text: response.result?.content?.[0]?.text ?? '', isError: response.result?.isError === true };
}

describe('router mode over a server with tools called call_tool and find_tools', () => {
  it('call_tool reaches the server’s own call_tool and find_tools, which find_tools lists', async () => {
    const found = JSON.parse((await call('find_tools', { query: 'call a tool of the gateway' })).text) as { tools: { name: string }[] };
    expect(found.tools.map((t) => t.name)).toContain('call_tool');
    const inner = await call('call_tool', { name: 'call_tool', arguments: { toolName: 'lights_on', arguments: {} } });
    expect(inner).toEqual({ text: 'gateway/call_tool: {"toolName":"lights_on","arguments":{}}', isError: false });
    const search = await call('call_tool', { name: 'find_tools', arguments: { keywords: 'lights' } });
    expect(search).toEqual({ text: 'gateway/find_tools: {"keywords":"lights"}', isError: false });
    const calls = fs
      .readFileSync(path.join((run as RouterRun).work, 'gateway.calls'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool: string });
    expect(calls.map((c) => c.tool)).toEqual(['call_tool', 'find_tools']);
  });
});
