import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { FakeSession } from '../helpers/fake-xiaozhi';
import { waitFor } from '../helpers/wait';
import { allGone, BIN, CLI, CLI_SCRIPT, CliHarness, fixtureEntry, fixturePids, TOKEN, waitForText } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

const WRAPPER = path.resolve(__dirname, 'fixtures/no-forward-wrapper.cjs');
const INJECT = path.resolve(__dirname, 'fixtures/inject-fault.cjs');

/**
 * A bridge serving the fake endpoint with a fixture server that has a grandchild and does not exit
 * when its stdin closes (so a clean stop has to wait, then kill it). Resolves once a call works.
 */
async function servingBridge(command?: string[], env: NodeJS.ProcessEnv = {}) {
  const { xiaozhi, file, pidFile } = await h.endpointAndServerTree();
  const run = h.spawn(['run', '--config', file], { env: { MCP_ENDPOINT: xiaozhi.url(TOKEN), ...env }, ...(command ? { command } : {}) });
  const session = await xiaozhi.connection(0, 15_000);
  await session.initialize();
  await expectEcho(session, 'ready');
  const pids = await fixturePids(pidFile, 2);
  h.track(pids);
  return { run, pids, session };
}

/** A folder holding a `ps` that fails when asked for one process's parent (`ps -o ppid= -p PID`), and runs the real one otherwise. */
function psWithoutParents(): string {
  const dir = h.tempDir();
  const real = execFileSync('sh', ['-c', 'command -v ps'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(path.join(dir, 'ps'), `#!/bin/sh\nif [ "$1 $2" = "-o ppid=" ]; then exit 1; fi\nexec '${real}' "$@"\n`, { mode: 0o755 });
  return dir;
}

/** Every process with its parent and command line (POSIX `ps`). */
function processes(): { pid: number; ppid: number; args: string }[] {
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] as string }));
}

/** The watchdog a bridge started (`xiaozhi-tray watchdog` in ps). */
const watchdogOf = (bridgePid: number) => processes().find((p) => p.ppid === bridgePid && p.args.includes('watchdog'))?.pid;

let callId = 1;
async function expectEcho(session: FakeSession, text: string): Promise<void> {
  await waitFor(
    async () => (await session.listAllTools(callId++ * 1000)).tools.some((t) => t.name === 'echo'),
    15_000,
    'echo to be served',
  );
  const call = await session.request(`call-${callId++}`, 'tools/call', { name: 'echo', arguments: { text } });
  expect(call.result?.content?.[0]?.text).toBe(`fx: ${text}`);
}

describe('stopping the headless bridge leaves nothing behind', () => {
  it('stops every server when the package manager that launched it goes away without passing SIGTERM on', async () => {
    // On Linux, with a ps that cannot say a process's parent (as one that timed out on a busy machine):
    // the bridge then watched only the shell, which outlives the wrapper, and never stopped.
    const env = process.platform === 'linux' ? { PATH: `${psWithoutParents()}${path.delimiter}${process.env.PATH ?? ''}` } : {};
    const { run, pids } = await servingBridge([process.execPath, WRAPPER, process.execPath, BIN], env);
    const shellPid = Number(/wrapper: shell pid (\d+)/.exec(run.stdout())?.[1]);
    const bridgePid = Number(/xiaozhi-tray \S+ \(pid (\d+)\), config/.exec(run.stdout())?.[1]);
    expect(bridgePid).not.toBe(shellPid);
    h.track([bridgePid, shellPid]);

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(143);
    // The shell between them outlives the wrapper (it waits for the bridge): the bridge watches the wrapper too.
    await allGone([bridgePid, shellPid, ...pids]);
    await waitForText(run.stdout, `the process that started the bridge (pid ${run.child.pid}) went away: stopping every server`);
    await waitForText(run.stdout, '[app] stopped');
  });

  it('stops at once when npm had already gone before it started (npx killed during start-up)', async () => {
    const dir = h.tempDir();
    const log = path.join(dir, 'out.log');
    const file = h.writeConfig({}, 'empty.json', dir);
    // A subshell that backgrounds the bridge and exits: the bridge is an orphan from its first moment.
    const quoted = [...CLI, 'run', '--config', file].map((a) => `'${a}'`).join(' ');
    const sh = h.spawn([], { command: ['/bin/sh', '-c', `(${quoted} > '${log}' 2>&1 &)`], env: { npm_command: 'exec' } });
    expect(await sh.exit).toBe(0);
    const read = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '');
    await waitForText(read, /\(pid \d+\), config/);
    const bridgePid = Number(/\(pid (\d+)\), config/.exec(read())?.[1]);
    h.track([bridgePid]);
    await waitForText(
      read,
      /the process that started the bridge (had gone before it started|\(pid \d+\) went away): stopping every server/,
    );
    await allGone([bridgePid]);
    expect(read()).toContain('[app] stopped');
  });

  // Windows has no SIGQUIT.
  const stops: { keys: string; signal: NodeJS.Signals; code: number }[] = [
    { keys: 'Ctrl+C', signal: 'SIGINT', code: 130 },
    ...(process.platform === 'win32' ? [] : [{ keys: 'Ctrl+\\', signal: 'SIGQUIT' as const, code: 131 }]),
  ];
  for (const { keys, signal, code } of stops) {
    it(`${keys} (${signal}) stops every server cleanly and exits ${code}`, async () => {
      const { run, pids } = await servingBridge();
      run.child.kill(signal);
      expect(await run.exit).toBe(code);
      await allGone(pids);
      expect(run.stdout()).toContain(`${signal}: stopping every server`);
      expect(run.stdout()).toContain('[app] stopped');
    });
  }

  it.skipIf(process.platform === 'win32')(
    'Ctrl+C in a terminal (the whole process group) stops every server without reporting them as crashed and restarting',
    async () => {
      const { xiaozhi, file, pidFile } = await h.endpointAndServerTree((pidFile) =>
        Object.fromEntries(['a', 'b', 'c'].map((name) => [name, fixtureEntry({ FIXTURE_NAME: name, FIXTURE_PID_FILE: pidFile })])),
      );
      // Its own process group, as a terminal's foreground job: the terminal signals every process in it.
      const run = h.spawn(['run', '--config', file], { env: { MCP_ENDPOINT: xiaozhi.url(TOKEN) }, detached: true });
      const session = await xiaozhi.connection(0, 15_000);
      await session.initialize();
      await waitForText(run.stdout, /running \(pid \d+\)[^\n]*\n[\s\S]*running \(pid \d+\)[^\n]*\n[\s\S]*running \(pid \d+\)/);
      const pids = await fixturePids(pidFile, 3);
      h.track(pids);
      process.kill(-(run.child.pid as number), 'SIGINT');
      expect(await run.exit).toBe(130);
      await allGone(pids);
      expect(run.stdout()).toContain('[app] stopped');
      expect(run.stdout()).not.toMatch(/restarting in|the connection closed/);
    },
  );

  it('a second Ctrl+C exits at once, and kills every server tree before it does', async () => {
    const { run, pids } = await servingBridge();
    run.child.kill('SIGINT');
    // The server ignores its closed stdin, so the clean stop is still waiting for it here.
    await waitForText(run.stdout, 'SIGINT: stopping every server');
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    await allGone(pids, 5000);
    expect(run.stdout()).toContain('SIGINT again: killing every server now');
    expect(run.stdout()).not.toContain('[app] stopped');
  });

  it.skipIf(process.platform === 'win32')(
    'kill -9 of the bridge: its watchdog stops every server tree, even servers that ignore a closed stdin and SIGTERM, then exits itself',
    async () => {
      const { xiaozhi, file, pidFile } = await h.endpointAndServerTree((pidFile, dir) => {
        const fixture = (name: string, extra: Record<string, string> = {}) =>
          fixtureEntry({
            FIXTURE_NAME: name,
            FIXTURE_GRANDCHILD: '1',
            FIXTURE_PID_FILE: pidFile,
            FIXTURE_TERM_FILE: path.join(dir, 'terms'),
            ...extra,
          });
        // Two running, and one still starting (it never answers initialize: a first npx download, say).
        return { a: fixture('a'), b: fixture('b'), stuck: fixture('stuck', { FIXTURE_HANG: '1' }) };
      });
      const run = h.spawn(['run', '--config', file], { env: { MCP_ENDPOINT: xiaozhi.url(TOKEN) } });
      const session = await xiaozhi.connection(0, 15_000);
      await session.initialize();
      await waitForText(run.stdout, /running \(pid \d+\)[^\n]*\n[\s\S]*running \(pid \d+\)/);
      await waitForText(run.stdout, 'fixture stuck hangs');
      const pids = await fixturePids(pidFile, 6);
      h.track(pids);
      const bridgePid = run.child.pid as number;
      await waitFor(() => watchdogOf(bridgePid) !== undefined, 15_000, 'the watchdog to start');
      const watchdogPid = watchdogOf(bridgePid) as number;
      h.track([watchdogPid]);
      process.kill(bridgePid, 'SIGKILL');
      await run.exit;
      // The servers' trees, then the watchdog itself: its job done, it does not linger.
      await allGone(pids, 20_000);
      await allGone([watchdogPid], 10_000);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'SIGTERM to every process of the bridge (systemd stopping its unit): a clean stop, and the watchdog leaves with it',
    async () => {
      const { run, pids } = await servingBridge();
      const bridgePid = run.child.pid as number;
      await waitFor(() => watchdogOf(bridgePid) !== undefined, 15_000, 'the watchdog to start');
      const watchdog = watchdogOf(bridgePid) as number;
      h.track([watchdog]);
      for (const pid of [bridgePid, watchdog, ...pids]) process.kill(pid, 'SIGTERM');
      expect(await run.exit).toBe(0);
      await allGone([...pids, watchdog]);
      expect(run.stdout()).toContain('[app] stopped');
      expect(run.stdout()).not.toContain('watchdog');
    },
  );

  it('logs an unhandled rejection and keeps serving', async () => {
    const { run, session } = await servingBridge([process.execPath, '--require', INJECT, CLI_SCRIPT], { INJECT_FAULT: 'rejection' });
    run.child.kill('SIGUSR2');
    await waitForText(run.stdout, /ERROR \[app\] unhandled promise rejection \(the bridge keeps running\): Error: injected rejection/);
    await expectEcho(session, 'still here');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('after an uncaught exception, logs it, stops every server and exits 1', async () => {
    const { run, pids } = await servingBridge([process.execPath, '--require', INJECT, CLI_SCRIPT], { INJECT_FAULT: 'exception' });
    run.child.kill('SIGUSR2');
    expect(await run.exit).toBe(1);
    await allGone(pids, 5000);
    expect(run.stdout()).toMatch(/ERROR \[app\] unexpected error: Error: injected crash/);
    expect(run.stdout()).toContain('stopping after an unexpected error: stopping every server');
    expect(run.stdout()).toContain('[app] stopped');
  });
});

describe.skipIf(process.platform === 'win32')('kill -9 of the bridge, servers that exit at once when their stdin ends', () => {
  it('also stops the helpers those servers started', async () => {
    // A shell that starts a helper and execs cat, which exits within microseconds of its stdin's end:
    // by the time the watchdog lists the trees (after the bridge is gone), the helpers are init's.
    const dir = h.tempDir();
    const pidFile = path.join(dir, 'pids');
    const script = `sleep 1000 & echo "$$ $!" >> '${pidFile}'; exec cat > /dev/null`;
    const servers: Record<string, unknown> = {};
    for (const name of ['a', 'b', 'c']) servers[name] = { command: 'sh', args: ['-c', script] };
    const file = h.writeConfig({ mcpServers: servers }, 'mcp_config.json', dir);
    const run = h.spawn(['run', '--config', file]);
    const lines = () => (fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim().split('\n') : []);
    await waitFor(() => lines().length === 3, 20_000, 'three servers and their helpers');
    const shells = lines().map((line) => Number(line.split(' ')[0]));
    const helpers = lines().map((line) => Number(line.split(' ')[1]));
    h.track([...shells, ...helpers]);
    const readText = (file: string) => {
      try {
        return fs.readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    };
    const isWatchdog = (entry: string) =>
      readText(`/proc/${entry}/cmdline`).includes('watchdog') && readText(`/proc/${entry}/stat`).split(' ')[3] === String(run.child.pid);
    await waitFor(() => fs.readdirSync('/proc').some((entry) => /^\d+$/.test(entry) && isWatchdog(entry)), 15_000, 'the watchdog');
    // The watchdog lists the servers' helpers at each report and a second later: a kill within that
    // second of a helper's start is still a race (left for process groups). Past it, none may be lost.
    const seenAt = Date.now();
    await waitFor(() => Date.now() - seenAt > 3000, 10_000, 'the helpers to have run for a few seconds');
    process.kill(run.child.pid as number, 'SIGKILL');
    await run.exit;
    await allGone(shells, 10_000);
    // Before: every helper still running, a child of init.
    await allGone(helpers, 20_000);
  }, 90_000);
});
