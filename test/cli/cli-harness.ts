import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';

import { version } from '../../package.json';
import type { ProcessContext } from '../../src/cli/command';
import { isAlive } from '../../src/main/core/servers/process-tree';
import { FIXTURE } from '../helpers/bridge-harness';
import { BIN, CLI, CLI_SCRIPT, cliEnv } from '../helpers/cli-env';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { isRunning } from '../helpers/processes';
import { waitFor } from '../helpers/wait';

export { BIN, CLI, CLI_SCRIPT, cliEnv };
export const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGkifQ.Y2xpLXNlY3JldC1zaWduYXR1cmU';

/** A running (or finished) CLI process with what it printed. */
export interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
  /** The signal that ended it, once it has exited. */
  signal: () => NodeJS.Signals | null;
}

export type SpawnOptions = { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string; command?: string[]; detached?: boolean };

/** Temporary folders, processes, pids and fake endpoints of one test file; `cleanup()` in afterEach. */
export class CliHarness {
  private readonly dirs: string[] = [];
  private readonly children: ChildProcess[] = [];
  private readonly pids: number[] = [];
  private readonly endpoints: FakeXiaozhi[] = [];

  /** A fake xiaozhi endpoint, closed by `cleanup()`. */
  async fakeXiaozhi(): Promise<FakeXiaozhi> {
    const xiaozhi = await FakeXiaozhi.start();
    this.endpoints.push(xiaozhi);
    return xiaozhi;
  }

  /**
   * A fake xiaozhi, and a config (mcp_config.json in a folder of its own) with the fixture servers
   * `servers` makes, by default one, fx, that starts a grandchild; they write their pids to `pidFile`,
   * one a line (see `fixturePids`).
   */
  async endpointAndServerTree(
    servers = (pidFile: string, _dir: string): Record<string, unknown> => ({
      fx: fixtureEntry({ FIXTURE_GRANDCHILD: '1', FIXTURE_PID_FILE: pidFile }),
    }),
  ): Promise<{ xiaozhi: FakeXiaozhi; file: string; pidFile: string }> {
    const xiaozhi = await this.fakeXiaozhi();
    const dir = this.tempDir();
    const pidFile = path.join(dir, 'pids');
    const file = this.writeConfig({ mcpServers: servers(pidFile, dir) }, 'mcp_config.json', dir);
    return { xiaozhi, file, pidFile };
  }

  tempDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-cli-'));
    this.dirs.push(dir);
    return dir;
  }

  /** A folder by exactly this name (spaces, %, a line break: as a user's may be) inside a fresh temp folder. */
  namedDir(name: string): string {
    const dir = path.join(this.tempDir(), name);
    fs.mkdirSync(dir);
    return dir;
  }

  writeConfig(value: unknown, name = 'config.json', dir = this.tempDir()): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    return file;
  }

  /**
   * Runs the CLI (`CLI args`: the bundle through the code-cache launcher; or another `command`), MCP_ENDPOINT cleared
   * unless given, in English unless the env given names another locale (`cliEnv`).
   */
  spawn(args: string[], options: SpawnOptions = {}): Run {
    const [program, ...pre] = options.command ?? CLI;
    const child = spawn(program as string, [...pre, ...args], {
      env: cliEnv(options.env),
      cwd: options.cwd ?? process.cwd(),
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: options.detached ?? false,
    });
    this.children.push(child);
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    let out = '';
    let err = '';
    let signal: NodeJS.Signals | null = null;
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const exit = new Promise<number | null>((resolve) =>
      child.on('exit', (code, sig) => {
        signal = sig;
        resolve(code);
      }),
    );
    return { child, stdout: () => out, stderr: () => err, exit, signal: () => signal };
  }

  /** Runs the CLI to its end: exit code and what it printed. */
  async finished(args: string[], options: SpawnOptions = {}): Promise<{ code: number | null; out: string; err: string }> {
    const run = this.spawn(args, options);
    const code = await run.exit;
    // 'exit' can come before the last of stdout and stderr is read: wait for the pipes to close.
    if (run.child.stdout && !run.child.stdout.closed) await new Promise((resolve) => run.child.once('close', resolve));
    return { code, out: run.stdout(), err: run.stderr() };
  }

  /**
   * The same command line through the CLI's own `main()` in this process, without paying for a Node
   * process (and the bundle's compile) each time: for help, usage errors, config reading and the
   * commands that start servers, do their work and stop them (servers, tools, call, init, export).
   * Not for what a process is needed to show (signals, exit codes of a killed run, stdio, a child
   * tree outliving its parent): `finished` / `spawn` for those. With XT_CLI_BIN set (another build
   * under test) it is spawned like `finished`.
   */
  async answered(
    args: string[],
    options: Pick<SpawnOptions, 'cwd' | 'env'> = {},
  ): Promise<{ code: number | null; out: string; err: string }> {
    if (process.env.XT_CLI_BIN) return this.finished(args, options);
    // connect relays the process's own stdin and reads its environment (it is Electron's too): never in here.
    if (args[0] === 'connect' && !args.some((a) => ['--help', '-h', '--version', '-v'].includes(a)))
      throw new Error('connect needs a process of its own: use finished() or spawn()');
    let out = '';
    let err = '';
    // What a command writes to its streams (logs, an export) lands in the same text as its lines.
    const stream = (add: (text: string) => void): Writable =>
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          add(chunk.toString());
          done();
        },
      });
    const env = cliEnv(options.env);
    const ctx: ProcessContext = {
      version,
      out: (text) => void (out += `${text}\n`),
      err: (text) => void (err += `${text}\n`),
      stdout: stream((text) => (out += text)),
      stderr: stream((text) => (err += text)),
      env,
      cwd: options.cwd ?? process.cwd(),
      platform: process.platform,
      // As os.homedir() in a process started with this env.
      home: env.HOME ?? os.homedir(),
      // Empty, as a spawned CLI's ('ignore'); a secret read from "-" reads fd 0 itself: spawn for that.
      stdin: Readable.from([]),
      execPath: process.execPath,
      entryScript: BIN,
    };
    // Imported here: the other CLI tests need none of the CLI's source in this process.
    const { main } = await import('../../src/cli/main');
    const code = await main(args, ctx);
    return { code, out, err };
  }

  /** Pids to kill after the test if a failed assertion left them running. */
  track(pids: number[]): void {
    this.pids.push(...pids);
  }

  async cleanup(): Promise<void> {
    for (const child of this.children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const pid of this.pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    for (const dir of this.dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    for (const endpoint of this.endpoints.splice(0)) await endpoint.close();
  }
}

export const fixtureEntry = (extra: Record<string, string> = {}) => ({
  command: process.execPath,
  args: [FIXTURE],
  env: { FIXTURE_NAME: 'fx', ...extra },
});

/** The pids a fixture server (and its grandchild) wrote to `pidFile`, once there are `count`. */
export async function fixturePids(pidFile: string, count: number): Promise<number[]> {
  await waitFor(
    () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim().split('\n').length >= count,
    15_000,
    `${count} pids in ${pidFile}`,
  );
  return fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
}

export async function waitForText(read: () => string, text: string | RegExp, timeoutMs = 15_000): Promise<void> {
  await waitFor(
    () => (typeof text === 'string' ? read().includes(text) : text.test(read())),
    timeoutMs,
    `output to contain ${String(text)}`,
  );
}

/** Resolves once none of `pids` runs any more (fails the test after the timeout). */
export async function allGone(pids: number[], timeoutMs = 15_000): Promise<void> {
  await waitFor(() => pids.every((pid) => !isRunning(pid)), timeoutMs, `pids ${pids.join(', ')} to exit`);
}
