import fs from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import { waitFor } from '../helpers/wait';
import { allGone, CliHarness, fixtureEntry, fixturePids, TOKEN } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

describe('the headless CLI', () => {
  it('check: accepts a valid file and summarises it', async () => {
    const file = h.writeConfig({ mcpEndpoint: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}`, mcpServers: { fx: fixtureEntry() } });
    const run = h.spawn(['check', '--config', file]);
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toContain('valid xiaozhi-client config: 1 endpoint, 1 server');
  });

  it('check: lists each problem with its line and JSON path in readable words, exits 1, and leaves the file alone', async () => {
    const text = JSON.stringify(
      {
        endpoints: [{ id: 'a', name: 'home', url: `https://api.xiaozhi.me/mcp/?token=${TOKEN}` }],
        servers: [{ name: 'x', transport: 'pipe' }],
      },
      null,
      2,
    );
    const file = h.writeConfig(text);
    const run = h.spawn(['check', '--config', file]);
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toMatch(/line \d+, column \d+, at endpoints\[0\]\.url: must be a ws:\/\/ or wss:\/\/ URL/);
    expect(run.stderr()).toMatch(
      /line \d+, column \d+, at servers\[0\]\.transport: must be one of stdio, sse, streamable-http, http-api, openapi, coze, dify, n8n, home-assistant\n/,
    );
    expect(run.stderr()).not.toContain('Invalid');
    expect(run.stderr()).not.toContain(TOKEN);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('tools: prints the catalog as xiaozhi gets it, with the server of each tool, sizes and pages', async () => {
    const file = h.writeConfig({
      mcpServers: { fx: fixtureEntry({ FIXTURE_EXTRA_TOOLS: '100' }), other: fixtureEntry({ FIXTURE_NAME: 'other' }) },
    });
    const run = h.spawn(['tools', '--config', file]);
    expect(await run.exit).toBe(0);
    const out = run.stdout();
    expect(out).toContain('server fx (stdio): 112 tools');
    // Both servers have echo: each is served under its server's prefix, and says where it comes from.
    expect(out).toMatch(/ fx_echo\s+\d+ B {2}fx:echo\s+Echoes its text \(fx\)/);
    expect(out).toMatch(/ other_echo\s+\d+ B {2}other:echo\s+Echoes its text \(other\)/);
    expect(out).toMatch(/ extra_0000\s+\d+ B {2}fx\s+Extra tool number 0/);
    expect(out).toMatch(/fx_weather_get\s+\d+ B {2}fx:weather\.get\s+查询天气/);
    // With the bridge's own task tools, which every endpoint is served.
    expect(out).toMatch(/ task_status\s+\d+ B {2}xiaozhi-tray\s+Checks on a long tool call/);
    expect(out).toMatch(/126 tools, \d+ bytes in [2-9] pages of at most 8192 bytes/);

    const json = h.spawn(['tools', '--config', file, '--json']);
    expect(await json.exit).toBe(0);
    const parsed = JSON.parse(json.stdout()) as { pages: { tools: { name: string; server: string; originalName: string }[] }[] };
    expect(parsed.pages.flatMap((p) => p.tools).find((t) => t.name === 'other_echo')).toMatchObject({
      server: 'other',
      originalName: 'echo',
    });
  });

  it('run: serves the endpoint, and on SIGTERM stops every server and exits 0', async () => {
    const { xiaozhi, file, pidFile } = await h.endpointAndServerTree();
    const run = h.spawn(['run', '--config', file], { env: { MCP_ENDPOINT: xiaozhi.url(TOKEN) } });
    const session = await xiaozhi.connection(0, 15_000);
    await session.initialize();
    await waitFor(
      async () => {
        const { tools } = await session.listAllTools(Math.floor(Math.random() * 1e6) + 1000);
        return tools.some((t) => t.name === 'echo');
      },
      15_000,
      'the fixture tools to be served',
    );
    const call = await session.request('call-1', 'tools/call', { name: 'echo', arguments: { text: '命令行' } });
    expect(call.result?.content?.[0]?.text).toBe('fx: 命令行');
    const pids = await fixturePids(pidFile, 2);
    h.track(pids);

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    await allGone(pids);
    expect(run.stdout()).toContain('SIGTERM: stopping every server');
    expect(run.stdout()).toContain('token=eyJh…(redacted)');
    expect(run.stdout()).not.toContain(TOKEN);
  });
});
