import type { ChildProcess } from 'node:child_process';

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import spawn from 'cross-spawn';

import { type Problem, problem } from '../../../shared/problem';
import { corkForThisTurn } from '../io/cork';
import { ProblemError, type ProcessExit } from '../problems/server-problems';
import { LeanReadBuffer } from './lean-read-buffer';

/** After `close()` has closed its stdin, how long the program may take to exit before SIGTERM, then SIGKILL (the SDK's schedule). */
const CLOSE_STEP_MS = 2000;

export interface StdioProgram {
  command: string;
  args: string[];
  /** The whole environment (nothing is added to it). */
  env: NodeJS.ProcessEnv;
  cwd?: string | undefined;
}

export interface StdioTransportOptions {
  /** The longest line the program may print. */
  maxLineBytes: number;
  /** What may wait unread in its stdin: past this, `send` refuses and `onNotReading` is told. */
  maxUnreadBytes: number;
  /** Its stderr, as it comes (set before `start`, so nothing of a quick crash is lost). */
  onStderr?: (chunk: Buffer) => void;
  onStderrEnd?: () => void;
  /** Spawned: its pid is known. */
  onSpawned?: () => void;
  /** It exited: how ('exit' comes before its pipes close). */
  onExit?: (exit: ProcessExit, child: ChildProcess) => void;
  /** It stopped reading its stdin (the bound was passed): the caller drops the connection. */
  onNotReading?: (notReading: Problem) => void;
}

/**
 * A program spawned with its stdio as an MCP transport (the SDK's public `Transport`): one JSON
 * message a line each way. Unlike the SDK's StdioClientTransport it parses each line once (the
 * lean read buffer), batches the writes of one turn of the event loop (cork), refuses to queue
 * without end for a program that stopped reading, and says how the program ended; the spawn
 * (cross-spawn, for `npx.cmd` and the like on Windows) and the close are the SDK's.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly buffer: LeanReadBuffer;
  /** The program's pipes have closed: the connection is over. */
  private closed = false;
  /** `close()` was called: nothing more is sent. */
  private closing = false;

  constructor(
    private readonly program: StdioProgram,
    private readonly options: StdioTransportOptions,
  ) {
    this.buffer = new LeanReadBuffer(options.maxLineBytes);
  }

  /** The program's process once spawned, until it has closed. */
  get process(): ChildProcess | undefined {
    return this.child;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('this stdio transport has started already');
    return new Promise((resolve, reject) => {
      const { command, args, env, cwd } = this.program;
      const child = spawn(command, args, {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: process.platform === 'win32',
        ...(cwd !== undefined ? { cwd } : {}),
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        this.options.onSpawned?.();
        resolve();
      });
      child.once('exit', (code, signal) => this.options.onExit?.({ code, signal }, child));
      child.on('close', () => this.ended());
      // A spawn that failed for lack of descriptors (EMFILE) has no pipes: its 'error' comes next.
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      const { stderr } = child;
      const { onStderr, onStderrEnd } = this.options;
      if (onStderr) stderr?.on('data', onStderr);
      else stderr?.resume();
      if (onStderrEnd) stderr?.on('end', onStderrEnd);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const error = this.post(message);
    return error === undefined ? Promise.resolve() : Promise.reject(error);
  }

  /**
   * `send` without a promise, for the call relay (each call's promise, and the handler for its
   * failure, were a tenth of what a call allocated): the error when the message could not go.
   */
  post(message: JSONRPCMessage): Error | undefined {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || this.closing) return new Error('Not connected');
    if (stdin.writableLength > this.options.maxUnreadBytes) {
      const notReading = problem('server.notReading', { megabytes: this.options.maxUnreadBytes / 1024 / 1024 });
      this.options.onNotReading?.(notReading);
      return new ProblemError(notReading);
    }
    // Batch the writes of one turn of the event loop (see corkForThisTurn).
    corkForThisTurn(stdin);
    // Written at once, without waiting for 'drain': the bound above is the back-pressure (the SDK's
    // send waited for 'drain', which nobody here waits on, as the relay sends without awaiting).
    stdin.write(`${JSON.stringify(message)}\n`);
    return undefined;
  }

  /** Closes its stdin, then as the SDK does: SIGTERM after 2 s, SIGKILL 2 s later (the teardown kills its tree sooner). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed || this.closing) {
      this.buffer.clear();
      return;
    }
    this.closing = true;
    const closing = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      child.stdin?.end();
    } catch {
      // closed already
    }
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_STEP_MS).unref())]);
      if (child.exitCode !== null || child.signalCode !== null) break;
      try {
        child.kill(signal);
      } catch {
        // gone meanwhile
      }
    }
    this.buffer.clear();
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // A line past the bound: the connection ends (as the SDK's did).
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // One line that is not JSON-RPC: said, and the next line is read.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.child = undefined;
    this.onclose?.();
  }
}
