import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

import { isRecord } from '../../../shared/is-record';
import { problem } from '../../../shared/problem';
import { ProblemError } from '../problems/server-problems';

/**
 * A server printed more than the buffer holds without a newline. Thrown from `append` (the
 * transport then reports it and closes), carrying the problem as a value: the SDK's own overflow
 * is a plain Error with only its wording to tell it by.
 */
export class ReadBufferOverflow extends ProblemError {
  constructor(maxBufferSize: number) {
    super(problem('server.outputOverflow', { megabytes: Math.round(maxBufferSize / 1048576) }));
  }
}

/**
 * The stdio transport's read buffer, which parses each line once: JSON.parse and a check of the
 * envelope, without the zod parse of every message of the SDK's `ReadBuffer` (the relay reads call responses
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
