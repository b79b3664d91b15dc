import { type ChildProcess, spawn } from 'node:child_process';

import type { BridgeState } from '../../../shared/status';
import type { Logger } from '../logs/log-book';
import { withoutPrivateEnv } from './private-env';

/** How the hosting process starts its watchdog (see watchdog.ts): `node out/cli/watchdog.js`, or the desktop app's own binary. */
export interface WatchdogCommand {
  command: string;
  args: string[];
}

/** A pid no longer reported is still watched this long: its tree may still be being stopped (a grace, then the kill). */
const LINGER_MS = 15_000;
/** A watchdog that died is started again this many times at most. */
const MAX_STARTS = 3;

/**
 * The bridge's side of the watchdog: started when the first server process runs (a bridge with
 * only remote servers never starts one), told of every change, told "nothing" on a clean stop.
 * Spawned detached (a process group of its own), so a signal to the bridge's group does not take
 * it too; not holding the bridge's event loop open.
 */
export class ServerWatchdog {
  private child: ChildProcess | undefined;
  private starts = 0;
  private current = new Set<number>();
  private readonly lingering = new Map<number, NodeJS.Timeout>();
  private sent = '';
  private closed = false;

  constructor(
    private readonly command: WatchdogCommand,
    private readonly log: Logger,
  ) {}

  /** The pids the servers run as now. */
  watch(pids: Iterable<number>): void {
    if (this.closed) return;
    const next = new Set(pids);
    for (const pid of this.current) {
      if (next.has(pid) || this.lingering.has(pid)) continue;
      const timer = setTimeout(() => {
        this.lingering.delete(pid);
        this.report();
      }, LINGER_MS);
      timer.unref();
      this.lingering.set(pid, timer);
    }
    for (const pid of next) {
      clearTimeout(this.lingering.get(pid));
      this.lingering.delete(pid);
    }
    this.current = next;
    this.report();
  }

  /** The bridge stopped every server itself: the watchdog is told there is nothing left, and exits. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.lingering.values()) clearTimeout(timer);
    this.lingering.clear();
    this.current.clear();
    if (this.child) this.send('pids');
    this.child?.stdin?.end();
    this.child = undefined;
  }

  /** The watchdog's process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private report(): void {
    const line = `pids${[...new Set([...this.current, ...this.lingering.keys()])].map((pid) => ` ${pid}`).join('')}`;
    if (line === this.sent && this.child) return;
    if (!this.child && line === 'pids') return;
    if (!this.child && !this.start()) return;
    this.send(line);
  }

  private send(line: string): void {
    this.sent = line;
    this.child?.stdin?.write(`${line}\n`);
  }

  private start(): boolean {
    if (this.starts >= MAX_STARTS) return false;
    this.starts++;
    // Our own secrets stay out of the watchdog's environment (it has no use for them).
    const env = withoutPrivateEnv(process.env);
    let child: ChildProcess;
    try {
      child = spawn(this.command.command, this.command.args, {
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
        windowsHide: true,
        env,
      });
    } catch (error) {
      this.lost(`could not be started: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    this.child = child;
    child.stdin?.on('error', () => undefined);
    child.on('error', (error) => this.lost(`could not be started: ${error.message}`, child));
    child.on('exit', (code, signal) => this.lost(`exited (${code !== null ? `code ${code}` : signal})`, child));
    // Neither the process nor its pipe keeps the bridge running.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return true;
  }

  private lost(how: string, child?: ChildProcess): void {
    if (child && child !== this.child) return;
    this.child = undefined;
    if (this.closed) return;
    const again = this.starts < MAX_STARTS;
    this.log.warn(
      `the watchdog that stops the servers if the bridge is killed ${how}${again ? '; starting it again' : '; servers may outlive a kill -9 of the bridge'}`,
    );
    if (again) setImmediate(() => this.report());
  }
}

/** Keeps a watchdog told of the pids of `bridge`'s servers (from its status events). */
export function startServerWatchdog(
  bridge: { on(event: 'status', listener: (state: BridgeState) => void): () => void },
  command: WatchdogCommand,
  log: Logger,
): ServerWatchdog {
  const watchdog = new ServerWatchdog(command, log);
  bridge.on('status', (state) => watchdog.watch(state.servers.flatMap((server) => (server.pid !== undefined ? [server.pid] : []))));
  return watchdog;
}
