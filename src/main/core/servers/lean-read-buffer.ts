import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../../../shared/is-record';
import { problem } from '../../../shared/problem';
import { ProblemError } from '../problems/server-problems';

/**
 * A server printed more than the buffer holds without a newline. Thrown where the SDK's buffer
 * throws (its transport then reports it and closes), carrying the problem as a value: the SDK's
 * own overflow is a plain Error with only its wording to tell it by.
 */
export class ReadBufferOverflow extends ProblemError {
  constructor(maxBufferSize: number) {
    super(problem('server.outputOverflow', { megabytes: Math.round(maxBufferSize / 1048576) }));
  }
}

/**
 * A stand-in for the SDK's stdio `ReadBuffer` that parses each line once: JSON.parse and a check
 * of the envelope, without the SDK's zod parse of every message (the relay reads call responses
 * itself; the SDK's `Protocol` validates what it routes again anyway). It also scans each byte for
 * a newline once, where the SDK's scans the whole buffer again for every chunk of a long line.
 */
export class LeanReadBuffer {
  private buffer: Buffer | undefined;
  /** Bytes of `buffer` already known to hold no newline. */
  private scanned = 0;
  /**
   * Chunks of one long line that came after `buffer`, none holding a newline: kept apart and joined
   * once the line ends (joining at every chunk copied a 10 MB line ~160 times).
   */
  private held: Buffer[] = [];
  /** Bytes in `buffer` and `held`. */
  private size = 0;

  constructor(private readonly maxBufferSize: number) {}

  append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new ReadBufferOverflow(this.maxBufferSize);
    }
    this.size += chunk.length;
    if (!this.buffer) {
      this.buffer = chunk;
      return;
    }
    if (this.scanned === this.buffer.length && chunk.indexOf(10) === -1) {
      this.held.push(chunk);
      return;
    }
    const before = this.held.reduce((sum, part) => sum + part.length, this.buffer.length);
    this.buffer = Buffer.concat([this.buffer, ...this.held, chunk]);
    // The held chunks had no newline either.
    if (this.held.length > 0) this.scanned = before;
    this.held = [];
  }

  readMessage(): JSONRPCMessage | null {
    const buffer = this.buffer;
    if (!buffer) return null;
    const index = buffer.indexOf(10, this.scanned);
    if (index === -1) {
      this.scanned = buffer.length;
      return null;
    }
    const end = index > 0 && buffer[index - 1] === 13 ? index - 1 : index;
    const line = buffer.toString('utf8', 0, end);
    this.buffer = index + 1 < buffer.length ? buffer.subarray(index + 1) : undefined;
    this.size = this.buffer?.length ?? 0;
    this.scanned = 0;
    const message: unknown = JSON.parse(line);
    if (!isRecord(message) || message.jsonrpc !== '2.0') throw new Error(`not a JSON-RPC 2.0 message: ${line.slice(0, 120)}`);
    return message as JSONRPCMessage;
  }

  clear(): void {
    this.buffer = undefined;
    this.held = [];
    this.scanned = 0;
    this.size = 0;
  }
}

/**
 * Puts a lean buffer in place of the stdio transport's own, before it starts. The field is the
 * SDK's private one (the version is pinned; a test fails if it moves): without it, nothing changes.
 */
export function useLeanReadBuffer(transport: object, maxBufferSize: number): boolean {
  const holder = transport as { _readBuffer?: { readMessage?: unknown } };
  if (typeof holder._readBuffer?.readMessage !== 'function') return false;
  (holder as { _readBuffer: unknown })._readBuffer = new LeanReadBuffer(maxBufferSize);
  return true;
}
