import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { LogBook } from '../../../src/main/core/logs/log-book';
import { ChildServer } from '../../../src/main/core/servers/child-server';
import { isAlive } from '../../../src/main/core/servers/process-tree';
import { translator } from '../../../src/shared/i18n/translate';
import { logMessage } from '../../../src/shared/problem-words';
import { fastSupervision, FIXTURE, fixtureServer, type Harness, logText, makeBridge, startServing } from '../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../helpers/fake-xiaozhi';
import { isRunning } from '../../helpers/processes';
import { waitFor } from '../../helpers/wait';

let xiaozhi: FakeXiaozhi | undefined;
let harness: Harness | undefined;
const tempDirs: string[] = [];
const children: ChildServer[] = [];

afterEach(async () => {
  await harness?.bridge.stop();
  await xiaozhi?.close();
  harness = undefined;
  xiaozhi = undefined;
  for (const child of children.splice(0)) await child.stop();
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempFile(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xiaozhi-tray-test-'));
  tempDirs.push(dir);
  return path.join(dir, name);
}

const readPids = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').map(Number);
const server = (name: string) => harness!.bridge.state().servers.find((s) => s.name === name)!;

describe('child servers: supervision', () => {
  it('restarts a crashed server and tells the endpoint its tools changed', async () => {
    const serving = await startServing({ servers: [fixtureServer('fx')] });
    ({ xiaozhi, harness } = serving);
    const { session } = serving;
    const firstPid = server('fx').pid;
    const mark = session.mark();
    await session.request(1, 'tools/call', { name: 'crash', arguments: {} });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    await waitFor(() => server('fx').state === 'running' && server('fx').pid !== firstPid, 10_000, 'the restart');
    expect(server('fx').restarts).toBe(1);
    expect(isAlive(firstPid!)).toBe(false);
    const call = await session.request(2, 'tools/call', { name: 'echo', arguments: { text: 'again' } });
    expect(call.result?.content?.[0]?.text).toBe('fx: again');
  });

  it('says how a stdio server ended: its exit code, or the signal that killed it (not "the connection closed")', async () => {
    harness = makeBridge({
      servers: [fixtureServer('fx'), { name: 'early', transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(2)'] }],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await waitFor(() => server('early').lastError !== undefined, 10_000, 'the early exit');
    expect(server('early').lastError).toBe('the program exited before it was ready, with exit code 2');
    expect(server('early').lastErrorCause).toMatchObject({ code: 'server.exitedEarly' });

    const firstPid = server('fx').pid;
    await harness.bridge.api.callTool({ name: 'crash', arguments: {} });
    await waitFor(() => server('fx').restarts === 1, 10_000, 'the crash');
    expect(server('fx').lastError).toBe('the program exited with code 7');
    expect(server('fx').lastErrorCause).toEqual({ code: 'server.exited', params: { code: 7 } });
    expect(logText(harness.logBook)).toMatch(/\[server:fx\] the program exited with code 7 \(last stderr: .*\); restarting in/);

    await waitFor(() => server('fx').state === 'running' && server('fx').pid !== firstPid, 10_000, 'the restart');
    process.kill(server('fx').pid!, 'SIGKILL');
    await waitFor(() => server('fx').restarts === 2, 10_000, 'the kill');
    expect(server('fx').lastError).toBe('the program was killed by SIGKILL');
    expect(server('fx').lastErrorCause).toEqual({ code: 'server.killed', params: { signal: 'SIGKILL' } });
  });

  it('restarts a server that crashed while a process it started still holds its stdout open', async () => {
    // A helper that inherited the server's stdio (a subprocess started without redirecting its
    // output) keeps the pipe open after the server dies: the bridge must not wait for it to close.
    // Unreferenced, so that the wrapper ends with the fixture at the test's stop (else each stop waits out the stop grace).
    const pidFile = tempFile('orphan');
    const wrapper = [
      `const helper = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'inherit' });`,
      'helper.unref();',
      `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(helper.pid));`,
      `import(${JSON.stringify(pathToFileURL(FIXTURE).href)});`,
    ].join('\n');
    harness = makeBridge({
      servers: [{ name: 'held', transport: 'stdio', command: process.execPath, args: ['-e', wrapper], env: { FIXTURE_NAME: 'held' } }],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(server('held').state).toBe('running');
    const helper = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(isAlive(helper)).toBe(true);
    const firstPid = server('held').pid;
    await harness.bridge.api.callTool({ name: 'crash', arguments: {} });
    await waitFor(() => server('held').restarts === 1, 5000, 'the crash to be noticed (the helper lives 30 s)');
    expect(server('held').lastError).toBe('the program exited with code 7');
    await waitFor(() => server('held').state === 'running' && server('held').pid !== firstPid, 10_000, 'the restart');
    const call = await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'back' } });
    expect(call.text).toBe('held: back');
    await waitFor(() => !isAlive(helper), 5000, 'the helper of the crashed server to be stopped');
  });

  it('is restarting, not running, from the moment its loss is noticed: a call meanwhile is told so', async () => {
    const child = new ChildServer({
      settings: fixtureServer('fx'),
      log: new LogBook().logger('server:fx'),
      baseEnv: process.env,
      defaults: () => ({ callTimeoutMs: 10_000 }),
      supervision: fastSupervision,
      onStatus: () => {},
      onTools: () => {},
    });
    children.push(child);
    await child.start();
    // What a call finds while the lost server's processes are cleaned up (which can take seconds).
    const seen: string[] = [];
    const inner = child as unknown as { teardown: () => Promise<void> };
    const teardown = inner.teardown.bind(child);
    inner.teardown = async () => {
      seen.push(child.status().state);
      seen.push(
        await child.callTool('echo', { text: 'x' }).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
      );
      return teardown();
    };
    await child.callTool('crash', {});
    await waitFor(() => child.status().restarts === 1, 10_000, 'the crash');
    expect(seen).toEqual(['restarting', 'server "fx" is restarting']);
  });

  it('marks a crash-looping server failed with its last stderr lines, and the others keep serving', async () => {
    harness = makeBridge({ servers: [fixtureServer('broken', { FIXTURE_EXIT_ON_START: '1' }), fixtureServer('good')] });
    harness.bridge.start();
    await waitFor(() => server('broken').state === 'failed', 15_000, 'the crash loop to be detected');
    expect(server('broken').stderrTail.join('\n')).toContain('refusing to start');
    expect(server('broken').lastError).toBeTruthy();
    expect(server('good').state).toBe('running');
    expect(logText(harness.logBook)).toMatch(/\[server:broken\] failed 3 times/);
    // A user restart gives it a fresh chance (and it fails again, cleanly).
    await harness.bridge.api.restartServer({ name: 'broken' });
    await waitFor(() => server('broken').state === 'failed', 15_000);
  });

  it('does not let a missing program or a hanging server delay the others', async () => {
    harness = makeBridge(
      {
        servers: [
          { name: 'missing', transport: 'stdio', command: 'definitely-not-a-program-xyz', args: [] },
          { name: 'hang', transport: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
          fixtureServer('good'),
        ],
      },
      { startTimeoutMs: 20_000, restartBaseMs: 50, restartMaxMs: 100, maxCrashes: 2, crashWindowMs: 10_000 },
    );
    harness.bridge.start();
    await waitFor(() => server('good').state === 'running', 10_000);
    expect(server('hang').state).toBe('starting');
    await waitFor(() => server('missing').state === 'failed', 10_000);
    expect(server('missing').lastError).toMatch(/not found on PATH/);
    expect(harness.bridge.toolHub.catalog().some((t) => t.server === 'good')).toBe(true);
  });

  it('turns a slow tool into a readable timeout result', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx', {}, { callTimeoutMs: 300 })] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const result = await harness.bridge.api.callTool({ name: 'slow', arguments: { ms: 10_000 } });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/took too long/);
    const history = await harness.bridge.api.getHistory();
    expect(history.at(-1)).toMatchObject({ tool: 'slow', outcome: 'timeout', caller: 'ui' });
    expect(await harness.bridge.api.getToolCounts()).toEqual({ fx: { slow: { ok: 0, failed: 1, errorText: 0 } } });
    // Headless, the log is where a user sees it: the tool, its server and the limit.
    expect(logText(harness.logBook)).toMatch(/call slow \(server "fx"\) did not finish within 0\.3 s; the server was told to cancel it/);
    // In the window's language too (walkthrough 4: the app's English lines in the Chinese log).
    const line = harness.logBook.entries().find((e) => e.message.startsWith('call slow (server "fx") did not finish'))!;
    expect(logMessage(translator('zh-CN'), line)).toBe('调用 slow（服务“fx”）没有在 0.3 秒内完成，已通知服务取消它');
  });

  it('says a timeout under a second, or not whole, as it was set (0.3 s, 1.5 s), not rounded to 0 s or 2 s', async () => {
    harness = makeBridge({
      servers: [fixtureServer('short', {}, { callTimeoutMs: 300 }), fixtureServer('half', {}, { callTimeoutMs: 1500 })],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const [short, half] = await Promise.all([
      harness.bridge.api.callTool({ name: 'short_slow', arguments: { ms: 10_000 } }),
      harness.bridge.api.callTool({ name: 'half_slow', arguments: { ms: 10_000 } }),
    ]);
    expect(short.text).toBe('The tool "short_slow" took too long. It was stopped after 0.3 seconds.');
    expect(short.error).toEqual({ code: 'call.timeout', params: { tool: 'short_slow', seconds: 0.3 } });
    expect(half.text).toBe('The tool "half_slow" took too long. It was stopped after 1.5 seconds.');
    expect(half.error).toEqual({ code: 'call.timeout', params: { tool: 'half_slow', seconds: 1.5 } });
  });

  it('applies a new default call timeout from Settings to running servers', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.updatePreferences({ limits: { callTimeoutMs: 300 } });
    const result = await harness.bridge.api.callTool({ name: 'slow', arguments: { ms: 10_000 } });
    expect(result.text).toMatch(/took too long/);
  });

  it('refreshes the catalog when a server announces list_changed', async () => {
    const serving = await startServing({ servers: [fixtureServer('fx')] });
    ({ xiaozhi, harness } = serving);
    const { session } = serving;
    const mark = session.mark();
    await session.request(1, 'tools/call', { name: 'add_tool', arguments: { name: 'brand_new' } });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const { tools } = await session.listAllTools();
    expect(tools.map((t) => t.name)).toContain('brand_new');
  });

  it('leaves no process behind on stop, grandchildren included', async () => {
    const pidFile = tempFile('pids');
    harness = makeBridge({
      servers: [
        fixtureServer('a', { FIXTURE_GRANDCHILD: '1', FIXTURE_PID_FILE: pidFile }),
        fixtureServer('b', { FIXTURE_PID_FILE: pidFile }),
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await waitFor(() => fs.existsSync(pidFile) && readPids(pidFile).length === 3, 5000, 'three pids');
    const pids = readPids(pidFile);
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    await harness.bridge.stop();
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).toBe(false);
    expect(harness.bridge.state().servers.every((s) => s.state === 'stopped')).toBe(true);
  });

  it('leaves one process after Retry now or Restart pressed many times, each press before the last one settled', async () => {
    const pidFile = tempFile('pids');
    harness = makeBridge({ servers: [fixtureServer('a', { FIXTURE_PID_FILE: pidFile })] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const presses: Promise<unknown>[] = [];
    for (let i = 0; i < 8; i++) {
      presses.push(harness.bridge.api.restartServer({ name: 'a' }).catch((error: unknown) => error));
      await new Promise((resolve) => setTimeout(resolve, i * 15));
    }
    await Promise.all(presses);
    await harness.bridge.whenServersSettled();
    await waitFor(() => server('a').state === 'running', 15_000, 'the server running');
    // Every process it started but the one it runs is gone (a stop of an earlier press no longer marks a newer start stopped).
    await waitFor(() => readPids(pidFile).filter((pid) => isRunning(pid)).length === 1, 10_000, 'one process alive');
    expect(readPids(pidFile).filter((pid) => isRunning(pid))).toEqual([server('a').pid]);
  });

  it('starts nothing after a stop: Retry now or Start pressed during or after the stop leave the server stopped', async () => {
    const pidFile = tempFile('pids');
    harness = makeBridge({ servers: [fixtureServer('a', { FIXTURE_PID_FILE: pidFile })] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    // Pressed as the app stops (quit, the tray's Stop): its stop must not be followed by a new child.
    const stopping = harness.bridge.stop();
    const retried = harness.bridge.api.restartServer({ name: 'a' }).catch((error: unknown) => error);
    await stopping;
    await retried;
    await expect(harness.bridge.api.startServer({ name: 'a' })).rejects.toThrow(/stopped/);
    await harness.bridge.api.restartServer({ name: 'a' }).catch(() => undefined);
    await harness.bridge.whenServersSettled();
    expect(server('a').state).toBe('stopped');
    for (const pid of readPids(pidFile)) expect(isAlive(pid), `pid ${pid}`).toBe(false);
  });
  it('gives stdio servers their env and cwd, and reads their Chinese stderr intact', async () => {
    const cwdDir = path.dirname(tempFile('x'));
    harness = makeBridge(
      {
        servers: [
          {
            name: 'env',
            transport: 'stdio',
            command: process.execPath,
            args: [
              '-e',
              "process.stderr.write('目录=' + process.cwd() + ' 值=' + process.env.MY_VALUE + ' py=' + process.env.PYTHONIOENCODING + '\\n'); setInterval(() => {}, 1000)",
            ],
            env: { MY_VALUE: '测试' },
            cwd: cwdDir,
          },
        ],
      },
      { startTimeoutMs: 10_000 },
    );
    harness.bridge.start();
    await waitFor(() => server('env').stderrTail.length > 0, 5000, 'stderr');
    expect(server('env').stderrTail[0]).toBe(`目录=${fs.realpathSync(cwdDir)} 值=测试 py=utf-8`);
  });
});

describe('child servers: hostile or broken output', () => {
  it('rate-limits a flood of stderr in the log, keeps the tail, and says how much it left out', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.callTool({ name: 'stderr', arguments: { text: 'flood', count: 20_000 } });
    await waitFor(() => server('fx').stderrTail.at(-1) === 'flood 20000', 10_000, 'the last line in the tail');
    await waitFor(() => logText(harness!.logBook).includes('lines of stderr were not logged'), 5000, 'the summary of dropped lines');
    const logged = harness.logBook.entries().filter((e) => e.source === 'server:fx' && e.message.startsWith('flood')).length;
    expect(logged).toBeLessThan(1000);
    expect(logged).toBeGreaterThan(50);
  });

  it('says how much it left out of a lasting flood at most once a second, not before every line it lets through', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const started = Date.now();
    // A flood that lasts three seconds: waves of 300 lines, each one in the tail before the next is sent.
    for (let wave = 0; Date.now() - started < 3000; wave++) {
      await harness.bridge.api.callTool({ name: 'stderr', arguments: { text: `wave ${wave}`, count: 300 } });
      await waitFor(() => server('fx').stderrTail.at(-1) === `wave ${wave} 300`, 10_000, `wave ${wave} in the tail`);
    }
    const summaries = () =>
      harness!.logBook.entries().filter((e) => e.source === 'server:fx' && e.message.includes('were not logged')).length;
    await waitFor(() => summaries() > 0, 5000, 'a summary of the lines left out');
    // At any moment: no more summaries than seconds since the flood began (and the one of its first burst).
    const count = summaries();
    expect(count).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 1000) + 1);
  });

  it('warns once when a server prints text that is not JSON on stdout, and does not log every such line', async () => {
    // A banner printed with print() before serving (common in Python servers), then 2,000 more lines.
    const banner = `process.stdout.write('Welcome to my server\\n' + 'not json\\n'.repeat(2000)); import(${JSON.stringify(pathToFileURL(FIXTURE).href)})`;
    harness = makeBridge({ servers: [{ name: 'fx', transport: 'stdio', command: process.execPath, args: ['-e', banner], env: {} }] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(server('fx').state).toBe('running');
    const mentions = harness.logBook.entries().filter((e) => e.source === 'server:fx' && /not (valid )?JSON/i.test(e.message));
    expect(mentions.find((e) => e.level === 'warn')?.message).toMatch(/stdout.*Welcome to my server/);
    // In the log page's language, with what it printed.
    expect(
      logMessage(
        translator('zh-CN'),
        mentions.find((e) => e.level === 'warn')!,
      ),
    ).toMatch(/^在标准输出上打印了不是 JSON 的内容.*Welcome to my server/);
    expect(mentions.length).toBeLessThanOrEqual(12);
  });

  it('fails at once, without retrying, when the command is not found on PATH', async () => {
    harness = makeBridge({ servers: [{ name: 'typo', transport: 'stdio', command: 'npx-typo-does-not-exist', args: [] }] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(server('typo').state).toBe('failed');
    expect(server('typo').restarts).toBe(0);
    expect(server('typo').lastError).toMatch(/"npx-typo-does-not-exist" was not found on PATH/);
  });

  it('says in its status when a server overflows its stdout buffer', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    void harness.bridge.api.callTool({ name: 'spew', arguments: {} });
    await waitFor(() => /output/.test(server('fx').lastError ?? ''), 10_000, 'the overflow in the status');
    expect(server('fx').lastError).toMatch(/more than 10 MB .*without a newline/);
  });

  it('keeps MCP_ENDPOINT and MODELSCOPE_API_TOKEN out of a server environment unless configured for it', async () => {
    const settings = { servers: [fixtureServer('fx'), fixtureServer('given', { MODELSCOPE_API_TOKEN: 'ms-configured' })] };
    harness = makeBridge(settings);
    // The bridge's own environment, as the CLI gets it.
    const env = { ...process.env, MCP_ENDPOINT: 'wss://api.xiaozhi.me/mcp/?token=eyJsecret', MODELSCOPE_API_TOKEN: 'ms-from-env' };
    const { Bridge } = await import('../../../src/main/core/bridge/bridge');
    const bridge = new Bridge({ store: harness.store, logBook: harness.logBook, env, supervision: { restartBaseMs: 50 } });
    harness = { ...harness, bridge };
    bridge.start();
    await bridge.whenServersSettled();
    // Through the hub, as an endpoint gets it (the window's copy is redacted).
    const read = async (tool: string, name: string) =>
      ((await bridge.toolHub.call(tool, { name }, { caller: 'test' })).result.content[0] as { text: string }).text;
    expect(await read('fx_getenv', 'MCP_ENDPOINT')).toBe('(unset)');
    expect(await read('fx_getenv', 'MODELSCOPE_API_TOKEN')).toBe('(unset)');
    expect(await read('fx_getenv', 'PATH')).not.toBe('(unset)');
    expect(await read('given_getenv', 'MODELSCOPE_API_TOKEN')).toBe('ms-configured');
  });
});

describe('child servers: programs that cannot start at all', () => {
  it('names a missing #! interpreter and a working folder that is a file, at once and as codes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xiaozhi-tray-test-'));
    tempDirs.push(dir);
    const script = path.join(dir, 'server.sh');
    fs.writeFileSync(script, '#!/no/such/interpreter\necho hi\n', { mode: 0o755 });
    const notAFolder = path.join(dir, 'file.txt');
    fs.writeFileSync(notAFolder, 'x');
    harness = makeBridge({
      servers: [
        { name: 'shebang', transport: 'stdio', command: script, args: [] },
        { name: 'cwd', transport: 'stdio', command: process.execPath, args: ['-e', '1'], cwd: notAFolder },
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(server('shebang')).toMatchObject({ state: 'failed', restarts: 0, lastErrorCause: { code: 'server.interpreterMissing' } });
    expect(server('shebang').lastError).toMatch(/interpreter on its first line/);
    expect(server('cwd')).toMatchObject({ state: 'failed', restarts: 0, lastErrorCause: { code: 'server.cwdMissing' } });
  });
});
