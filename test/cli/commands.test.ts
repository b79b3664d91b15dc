import { afterEach, describe, expect, it } from 'vitest';

import { type HttpFixture, startStreamableHttpFixture } from '../helpers/http-fixtures';
import { scaled } from '../helpers/time-scale';
import { CliHarness, fixtureEntry, TOKEN, waitForText } from './cli-harness';

const h = new CliHarness();
let remote: HttpFixture | undefined;

afterEach(async () => {
  await h.cleanup();
  await remote?.close();
  remote = undefined;
});

const API_KEY = 'sk-cli-test-0123456789abcdef';
/**
 * Long enough for a good server to start on a busy machine, well short of the 60 s a hung one is
 * given to start (what a command waited before the grace).
 */
const START_GRACE_MS = scaled(5000);

// servers, tools and call start the servers, answer and stop them: in this process (the fixture
// servers are real children); the run cases below need a process to stop with SIGTERM.
const answered = h.answered.bind(h);

describe('servers: the configured servers and their state, without serving xiaozhi', () => {
  it('shows each server with what it runs, its state and tools; errors and secrets as they should be', async () => {
    remote = await startStreamableHttpFixture();
    const file = h.writeConfig({
      mcpServers: {
        fx: fixtureEntry(),
        web: { type: 'http', url: `${remote.url}?api_key=${API_KEY}`, headers: { Authorization: `Bearer ${API_KEY}` } },
        broken: { command: 'xt-no-such-program-here', args: ['--token', API_KEY], env: { API_TOKEN: API_KEY } },
        off: { command: 'npx', args: ['-y', 'something'], disabled: true },
      },
    });
    const run = await answered(['servers', '--config', file]);
    expect(run.code).toBe(1);
    const lines = run.out.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TRANSPORT\s+STATE\s+TOOLS\s+RUNS$/);
    expect(run.out).toMatch(
      new RegExp(`\\nfx\\s+stdio\\s+running\\s+12\\s+${process.execPath.replace(/[/.]/g, '\\$&')} .*fixture-server\\.mjs\\n`),
    );
    expect(run.out).toMatch(/\nweb\s+streamable-http\s+running\s+1\s+http:\/\/127\.0\.0\.1:\d+\/mcp\?api_key=sk-c…\(redacted\)\n/);
    expect(run.out).toMatch(
      /\nbroken\s+stdio\s+(restarting|failed)\s+-\s+xt-no-such-program-here --token sk-c…\(redacted\)\n {4}error: .*xt-no-such-program-here/,
    );
    expect(run.out).toMatch(/\noff\s+stdio\s+disabled\s+-\s+npx -y something/);
    expect(run.out + run.err).not.toContain(API_KEY);

    const json = await answered(['servers', '--config', file, '--json']);
    const parsed = JSON.parse(json.out) as { servers: { name: string; state: string; tools: number; pid?: number }[] };
    expect(parsed.servers.map((s) => [s.name, s.state === 'running' || s.state === 'disabled' ? s.state : 'down', s.tools])).toEqual([
      ['fx', 'running', 12],
      ['web', 'running', 1],
      ['broken', 'down', 0],
      ['off', 'disabled', 0],
    ]);
    expect(parsed.servers[0]?.pid).toBeGreaterThan(0);
    expect(json.out).not.toContain(API_KEY);
  });

  // `call` included: it waited for the stuck server's start to time out (60 s) before the grace.
  it("waits for a server that hangs at start only as long as xiaozhi's first tools/list would (the start grace), not its whole start timeout", async () => {
    const file = h.writeConfig({
      servers: [
        { name: 'ok', transport: 'stdio', ...fixtureEntry() },
        { name: 'stuck', transport: 'stdio', ...fixtureEntry({ FIXTURE_HANG: '1' }) },
      ],
      limits: { startGraceMs: START_GRACE_MS },
    });
    const started = Date.now();
    const [servers, tools, call] = await Promise.all([
      answered(['servers', '--config', file]),
      answered(['tools', '--config', file]),
      answered(['call', '--config', file, 'echo', '--args', '{"text":"hi"}']),
    ]);
    expect(Date.now() - started).toBeLessThan(START_GRACE_MS + scaled(20_000));
    expect(call).toMatchObject({ code: 0, out: 'fx: hi\n' });
    for (const run of [servers, tools]) {
      expect(run.code).toBe(1);
      expect(run.out).toMatch(/stuck[^\n]*starting/);
    }
  });

  it('waits while servers keep coming up (a busy machine starts them one after another), saying which are still starting', async () => {
    // The first at once, then each within half the grace of the one before: the last well past the grace from the start.
    const grace = START_GRACE_MS;
    const file = h.writeConfig({
      servers: ['a', 'b', 'c', 'd'].map((name, i) => ({
        name,
        transport: 'stdio',
        ...fixtureEntry({ FIXTURE_NAME: name, FIXTURE_START_DELAY_MS: String(Math.round(grace * 0.5 * i)) }),
      })),
      limits: { startGraceMs: grace },
    });
    // Both commands at once: each starts the servers of its own, one after another as above.
    const [tools, servers] = await Promise.all([answered(['tools', '--config', file]), answered(['servers', '--config', file, '--json'])]);
    // Before: after the grace, "c starting", "d starting", 0 of their tools, exit 1.
    expect(tools.code, tools.out + tools.err).toBe(0);
    for (const name of ['a', 'b', 'c', 'd']) expect(tools.out).toMatch(new RegExp(`\\b${name}_echo\\b|\\becho\\b`));
    expect(tools.err).toMatch(/Still starting \(\d+ s so far\): .*d/);
    expect(servers.code).toBe(0);
    expect((JSON.parse(servers.out) as { servers: { state: string }[] }).servers.map((s) => s.state)).toEqual([
      'running',
      'running',
      'running',
      'running',
    ]);
  });

  it('--wait bounds the wait, and what was still starting then is said with how to wait longer', async () => {
    const file = h.writeConfig({
      servers: [
        { name: 'quick', transport: 'stdio', ...fixtureEntry({ FIXTURE_NAME: 'quick' }) },
        { name: 'slow', transport: 'stdio', ...fixtureEntry({ FIXTURE_NAME: 'slow', FIXTURE_START_DELAY_MS: String(scaled(30_000)) }) },
      ],
    });
    const started = Date.now();
    const run = await answered(['servers', '--config', file, '--wait', '2']);
    expect(Date.now() - started).toBeLessThan(scaled(20_000));
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/\nslow\s+stdio\s+starting/);
    // A busy machine may not have started "quick" in 2 s either: it is then named too, which is true.
    expect(run.err).toMatch(
      /Still starting after \d+ s: (quick, )?slow\. To wait longer: --wait 120 \(or limits\.startGraceMs in the config\)\./,
    );
    const bad = await answered(['servers', '--config', file, '--wait', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--wait');
  });

  it('says how to add servers when there are none, and exits 0', async () => {
    const run = await answered(['servers', '--config', h.writeConfig({})]);
    expect(run).toMatchObject({ code: 0 });
    expect(run.out).toContain('No servers are configured.');
    // tools too: it printed an empty "page 1 of 1" and "0 tools, 0 bytes in 1 page".
    const tools = await answered(['tools', '--config', h.writeConfig({})]);
    expect(tools).toMatchObject({ code: 0 });
    expect(tools.out).toBe(
      'No servers are configured, so xiaozhi gets no tools. Add some with "xiaozhi-tray import FILE --config …" or in the web UI (run --ui).\n',
    );
    const json = await answered(['tools', '--config', h.writeConfig({}), '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ servers: [], toolCount: 0 });
  });
});

describe('call: one tool, the way xiaozhi calls it', () => {
  it('does the four steps of a client and prints the text xiaozhi reads', async () => {
    // The config's own endpoint must not be contacted: call talks to its stand-in only.
    // With an endpoint configured, the list holds the bridge's own task_status and cancel_task beside fx's 12.
    const xiaozhi = await h.fakeXiaozhi();
    const file = h.writeConfig({ mcpEndpoint: xiaozhi.url(TOKEN), mcpServers: { fx: fixtureEntry() } });
    const run = await answered(['call', '--config', file, 'echo', '--args', '{"text":"命令行"}']);
    expect(run).toMatchObject({ code: 0, out: 'fx: 命令行\n' });
    expect(run.err).toMatch(
      // Under load the start may take over 2 s, which the CLI says first (the first word of waitForStarts).
      /^(Still starting \(\d+ s so far\): fx\n)*1\. initialize → xiaozhi-tray \S+ \(protocol 2024-11-05\)\n2\. notifications\/initialized\n3\. tools\/list → 14 tools in 1 page\n4\. tools\/call echo → \d+ bytes in \d+ ms\n$/,
    );
    expect(xiaozhi.sessions).toHaveLength(0);

    const picture = await answered(['call', '--config', file, 'picture']);
    expect(picture.out).toBe('Here is the chart.\n[image: image/png, 2.9 KB]\n[resource: file:///tmp/report.pdf, application/pdf]\n');
  });

  it("--json prints the response frame as sent, cut to the endpoint's size limit like a real call", async () => {
    const file = h.writeConfig({ mcpServers: { fx: fixtureEntry() } });
    const run = await answered(['call', '--config', file, 'big', '--args', '{"n":20000}', '--json']);
    expect(run.code).toBe(0);
    const frame = run.out.trimEnd();
    expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(8192);
    const message = JSON.parse(frame) as { jsonrpc: string; id: number; result: { content: { type: string; text: string }[] } };
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 2 });
    expect(message.result.content).toHaveLength(1);
    expect(message.result.content[0]?.text).toMatch(/^x{1000,}[\s\S]*truncated/);
  });

  it('exits 1 with the text of an error result, and names the tool meant when the name is wrong', async () => {
    const file = h.writeConfig({ mcpServers: { fx: fixtureEntry(), other: fixtureEntry({ FIXTURE_NAME: 'other' }) } });
    const failed = await answered(['call', '--config', file, 'fx_fail']);
    expect(failed).toMatchObject({ code: 1, out: 'it went wrong\n' });
    expect(failed.err).toContain('isError: true');
    const ambiguous = await answered(['call', '--config', file, 'echo']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toContain('xiaozhi would not see a tool called "echo". Did you mean "fx_echo" or "other_echo"?');
    const typo = await answered(['call', '--config', file, 'fx_ecoh']);
    expect(typo.err).toContain('Did you mean "fx_echo"?');
    const badArgs = await answered(['call', '--config', file, 'fx_echo', '--args', '[1]']);
    expect(badArgs.code).toBe(2);
    expect(badArgs.err).toContain('--args must be a JSON object');
    expect((await answered(['call', '--config', file])).err).toContain('call needs the name of a tool');
  });

  it('--endpoint calls through that endpoint\'s tool set, under the names "tools --endpoint" shows', async () => {
    const file = h.writeConfig({
      endpoints: [{ id: 'k', name: 'kitchen', url: 'ws://127.0.0.1:9/mcp/?token=t', toolSet: 'one' }],
      servers: [
        { name: 'fx', transport: 'stdio', ...fixtureEntry() },
        { name: 'other', transport: 'stdio', ...fixtureEntry({ FIXTURE_NAME: 'other' }) },
      ],
      toolSets: [{ name: 'one', servers: ['fx'], tools: { fx: { fail: { enabled: false } } } }],
    });
    // In the set, fx's echo has no rival, so the endpoint sees it unprefixed (the default set says fx_echo).
    const run = await answered(['call', '--config', file, '--endpoint', 'kitchen', 'echo', '--args', '{"text":"hi"}']);
    expect(run).toMatchObject({ code: 0, out: 'fx: hi\n' });
    // fx's 12 less the one switched off, and the bridge's own task_status and cancel_task (every set has them).
    expect(run.err).toContain('3. tools/list → 13 tools in 1 page');
    const off = await answered(['call', '--config', file, '--endpoint', 'k', 'fail']);
    expect(off.code).toBe(1);
    expect(off.err).toContain('xiaozhi would not see a tool called "fail".');
    expect(off.err).toContain(`Run "xiaozhi-tray tools --config ${file} --endpoint k" for the list.`);
    const unknown = await answered(['call', '--config', file, '--endpoint', 'garage', 'echo']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--endpoint "garage" names no endpoint of the config (its endpoints: kitchen)');
  });
});

describe('logs for collectors: --log-format json and --log-level', () => {
  it('writes one JSON object a line with time, level, source and message', async () => {
    const file = h.writeConfig({ mcpServers: { fx: fixtureEntry() } });
    const run = h.spawn(['run', '--config', file, '--log-format', 'json', '--ui']);
    await waitForText(run.stdout, 'running (pid');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    const lines = run
      .stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines) {
      expect(Object.keys(line).slice(0, 4)).toEqual(['time', 'level', 'source', 'message']);
      expect(new Date(line.time as string).toISOString()).toBe(line.time);
    }
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', source: 'server:fx', message: expect.stringMatching(/^running \(pid \d+\)/) }),
    );
    // A line the window can word in its language carries its code and parameters too.
    expect(lines).toContainEqual(
      expect.objectContaining({
        source: 'server:fx',
        code: 'server.running',
        params: expect.objectContaining({ tools: expect.any(Number) }),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', source: 'server:fx', message: 'fixture fx started, 中文输出正常' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ source: 'web', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/#\/overview\?token=/) }),
    );
  });

  it('with --host for the LAN, says how to open the page from another machine, not only "on this machine"', async () => {
    const run = h.spawn(['run', '--config', h.writeConfig({}), '--host', '0.0.0.0']);
    await waitForText(run.stdout, /token=\S+\n/);
    const port = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(run.stdout())?.[1];
    expect(run.stdout()).toContain(
      `From another machine: the same address with this machine's name or IP instead of 127.0.0.1 (port ${port})`,
    );
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    const local = h.spawn(['run', '--config', h.writeConfig({}), '--ui']);
    await waitForText(local.stdout, /token=\S+\n/);
    expect(local.stdout()).not.toContain('From another machine');
    local.child.kill('SIGTERM');
    expect(await local.exit).toBe(0);
  });

  it('shows only what is at least as important as --log-level', async () => {
    const file = h.writeConfig({ mcpServers: { fx: fixtureEntry() } });
    const quiet = h.spawn(['run', '--config', file, '--log-level', 'warn']);
    await waitForText(quiet.stdout, 'no endpoint configured');
    const debug = h.spawn(['run', '--config', file, '--log-level', 'debug']);
    await waitForText(debug.stdout, /INFO {2}\[server:fx\] running/);
    quiet.child.kill('SIGTERM');
    debug.child.kill('SIGTERM');
    expect(await quiet.exit).toBe(0);
    expect(await debug.exit).toBe(0);
    expect(quiet.stdout()).not.toMatch(/ INFO /);
    expect(quiet.stdout()).toMatch(/ WARN {2}\[app\] no endpoint configured/);
    expect(debug.stdout()).toMatch(/ INFO {2}\[app\] starting/);
  });

  it('at --log-level debug, prints a line for each call: tool, server, caller, outcome and time (never the arguments)', async () => {
    const xiaozhi = await h.fakeXiaozhi();
    const file = h.writeConfig({ mcpEndpoint: xiaozhi.url(TOKEN), mcpServers: { fx: fixtureEntry() } });
    const run = h.spawn(['run', '--config', file, '--log-level', 'debug']);
    const session = await xiaozhi.connection(0, 30_000);
    await session.initialize();
    await waitForText(run.stdout, /INFO {2}\[server:fx\] running/);
    const answer = await session.request(7, 'tools/call', { name: 'echo', arguments: { text: 'private words' } });
    expect(answer.result?.content?.[0]?.text).toBe('fx: private words');
    await waitForText(run.stdout, /DEBUG \[calls\] echo \(server "fx"\) from \S+: ok in [\d.]+ ms/);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stdout()).not.toContain('private words');
  });
});
