import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/main/core/servers/process-tree';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { FIXTURE } from '../helpers/bridge-harness';
import { runCli, type CliRun } from '../helpers/cli-process';
import { waitFor } from '../helpers/wait';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGkifQ.Y2xpLXNlY3JldC1zaWduYXR1cmU';
const dirs: string[] = [];
const children: ChildProcess[] = [];
let xiaozhi: FakeXiaozhi | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await xiaozhi?.close();
  xiaozhi = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function writeConfig(value: unknown, name = 'config.json'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-cli-'));
  dirs.push(dir);
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

function cli(args: string[], env: NodeJS.ProcessEnv = {}): CliRun {
  return runCli(args, env, children);
}

const fixtureEntry = (extra: Record<string, string> = {}) => ({ command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'fx', ...extra } });

describe('the headless CLI', () => {
  it('check: accepts a valid file and summarises it', async () => {
    const file = writeConfig({ mcpEndpoint: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}`, mcpServers: { fx: fixtureEntry() } });
    const run = cli(['check', '--config', file]);
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toContain('valid xiaozhi-client config: 1 endpoint(s), 1 server(s)');
  });

  it('check: lists each problem with its line and JSON path, exits 1, and leaves the file alone', async () => {
    const text = JSON.stringify({ endpoints: [{ id: 'a', name: 'home', url: `https://api.xiaozhi.me/mcp/?token=${TOKEN}` }], servers: [{ name: 'x', transport: 'pipe' }] }, null, 2);
    const file = writeConfig(text);
    const run = cli(['check', '--config', file]);
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toMatch(/line \d+, column \d+, at endpoints\[0\]\.url: must be a ws:\/\/ or wss:\/\/ URL/);
    expect(run.stderr()).toMatch(/at servers\[0\]\.transport/);
    expect(run.stderr()).not.toContain(TOKEN);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('tools: prints the catalog as xiaozhi gets it, with sizes and pages', async () => {
    const file = writeConfig({ mcpServers: { fx: fixtureEntry({ FIXTURE_EXTRA_TOOLS: '100' }) } });
    const run = cli(['tools', '--config', file]);
    expect(await run.exit).toBe(0);
    const out = run.stdout();
    expect(out).toContain('server fx (stdio): 112 tools');
    expect(out).toMatch(/weather_get\s+\d+ B {2}查询天气/);
    expect(out).toMatch(/112 tools, \d+ bytes in [2-9] page\(s\) of at most 8192 bytes/);
  });

  it('run: serves the endpoint, and on SIGTERM stops every server and exits 0', async () => {
    xiaozhi = await FakeXiaozhi.start();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-cli-'));
    dirs.push(dir);
    const pidFile = path.join(dir, 'pids');
    const file = writeConfig({ mcpServers: { fx: fixtureEntry({ FIXTURE_GRANDCHILD: '1', FIXTURE_PID_FILE: pidFile }) } }, 'mcp_config.json');
    const run = cli(['run', '--config', file], { MCP_ENDPOINT: xiaozhi.url(TOKEN) });
    const session = await xiaozhi.connection(0, 15_000);
    await session.initialize();
    await waitFor(async () => {
      const { tools } = await session.listAllTools(Math.floor(Math.random() * 1e6) + 1000);
      return tools.some((t) => t.name === 'echo');
    }, 15_000, 'the fixture tools to be served');
    const call = await session.request('call-1', 'tools/call', { name: 'echo', arguments: { text: '命令行' } });
    expect(call.result?.content?.[0]?.text).toBe('fx: 命令行');
    await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim().split('\n').length === 2, 5000, 'pids');
    const pids = fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).toBe(false);
    expect(run.stdout()).toContain('SIGTERM: stopping every server');
    expect(run.stdout()).toContain('token=eyJh…(redacted)');
    expect(run.stdout()).not.toContain(TOKEN);
  });

  it('explains a missing --config and an unknown command', async () => {
    const missing = cli(['run']);
    expect(await missing.exit).toBe(1);
    expect(missing.stderr()).toContain('Missing --config FILE');
    const unknown = cli(['fly']);
    expect(await unknown.exit).toBe(2);
    expect(unknown.stderr()).toContain('Unknown command "fly"');
  });
});
