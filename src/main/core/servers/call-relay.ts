import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';

import { isRecord } from '../../../shared/is-record';
import type { CallSignal } from '../io/call-signal';
import type { Logger } from '../logs/log-book';

/**
 * Relay ids start far above the SDK client's own, which count up from 0 on the same transport
 * (a billion requests apart), and stay within 32 bits for servers that keep ids as int32.
 */
export const FIRST_RELAY_ID = 1_000_000_000;

export interface RelayCallOptions {
  timeoutMs: number;
  signal?: CallSignal | undefined;
  /** Set when the caller asked for progress: the server's progress notifications come here. */
  onProgress?: ((progress: Progress) => void) | undefined;
}

/**
 * A transport that sends without a promise (ours over stdio): undefined once sent, the error when
 * the message could not go, or `send`'s promise when it can only send that way.
 */
export interface PostingTransport extends Transport {
  post(message: JSONRPCMessage): Error | undefined | Promise<void>;
}

export function isPosting(transport: Transport): transport is PostingTransport {
  return typeof (transport as Partial<PostingTransport>).post === 'function';
}

interface Pending {
  resolve: (result: CallToolResult) => void;
  reject: (error: unknown) => void;
  /** performance.now() past which the call has timed out. */
  deadline: number;
  timeoutMs: number;
  signal: CallSignal | undefined;
  onAbort: (() => void) | undefined;
  onProgress: ((progress: Progress) => void) | undefined;
}

/**
 * `tools/call` below the SDK's `Protocol`: a call is written to the server's transport with an id
 * of its own and its response taken off the transport before the SDK sees it, parsed once. The
 * SDK's `Client` keeps everything else on the same transport (handshake, lists, pings,
 * notifications). What the SDK's request path gives a call is kept: a timeout that cancels,
 * cancellation both ways, progress, and every failure as an error the hub words for the model.
 */
export class CallRelay {
  private nextId = FIRST_RELAY_ID;
  /**
   * The calls in flight by time limit, each in the order made, which for one limit is the order of
   * their deadlines: a sweep reads the calls past due and the first of each limit that is not, where
   * a scan of every call at each deadline made a stream of timeouts cost calls in flight × timeouts.
   * A limit's group stays when it empties (there are few limits; a sequential caller would
   * otherwise make one per call). A call is found by id in these few groups: a second map of every
   * call by id cost an insert and a delete per call, and its table's regrowth.
   */
  private readonly byLimit = new Map<number, Map<number, Pending>>();
  private closed = false;
  /**
   * One timer for every call's timeout, set for the earliest deadline when it fires: a timer per
   * call (made, listed and cleared for each) cost more than the rest of the relay's bookkeeping.
   */
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweepAt = Number.POSITIVE_INFINITY;

  /** Call after the SDK client has connected: it wraps the handlers the client installed. */
  constructor(
    private readonly transport: Transport,
    private readonly log: Logger,
  ) {
    const sdkMessage = transport.onmessage;
    const sdkClose = transport.onclose;
    transport.onmessage = (message, extra) => {
      if (!this.take(message)) sdkMessage?.(message, extra);
    };
    transport.onclose = () => {
      this.closeAll();
      sdkClose?.();
    };
  }

  /** Calls in flight (for tests and the bench). */
  get inFlight(): number {
    let count = 0;
    for (const group of this.byLimit.values()) count += group.size;
    return count;
  }

  call(name: string, args: Record<string, unknown>, options: RelayCallOptions): Promise<CallToolResult> {
    if (this.closed) return Promise.reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    const { signal, onProgress, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.nextId++;
    if (this.nextId > 2_000_000_000) this.nextId = FIRST_RELAY_ID;
    return new Promise<CallToolResult>((resolve, reject) => {
      const deadline = performance.now() + timeoutMs;
      const pending: Pending = { resolve, reject, signal, onProgress, onAbort: undefined, deadline, timeoutMs };
      if (deadline < this.sweepAt) this.sweepAfter(timeoutMs, deadline);
      if (signal) {
        pending.onAbort = () => this.fail(id, signal.reason);
        signal.addEventListener('abort', pending.onAbort);
      }
      let group = this.byLimit.get(timeoutMs);
      if (!group) this.byLimit.set(timeoutMs, (group = new Map()));
      group.set(id, pending);
      // Each shape in one literal (a key added after grew the object's property store).
      const params = onProgress ? { name, arguments: args, _meta: { progressToken: id } } : { name, arguments: args };
      const message = { jsonrpc: '2.0', id, method: 'tools/call', params } as JSONRPCMessage;
      const { transport } = this;
      let sent: Error | undefined | Promise<void>;
      try {
        sent = isPosting(transport) ? transport.post(message) : transport.send(message);
      } catch (error) {
        // A message that cannot be written (arguments too deep to stringify): the call fails now, not at its timeout.
        sent = error instanceof Error ? error : new Error(String(error));
      }
      if (sent instanceof Promise)
        sent.catch((error: unknown) => {
          if (this.settle(id)) reject(error);
        });
      else if (sent !== undefined && this.settle(id)) reject(sent);
    });
  }

  /** The server went away: every call in flight fails as the SDK's would ("Connection closed"). */
  closeAll(): void {
    this.closed = true;
    clearTimeout(this.sweepTimer);
    this.sweepTimer = undefined;
    this.sweepAt = Number.POSITIVE_INFINITY;
    const error = new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
    const calls = [...this.byLimit.values()].flatMap((group) => [...group]);
    for (const [id, pending] of calls) {
      this.settle(id);
      pending.reject(error);
    }
  }

  /** Times out the calls past their deadline, then waits for the earliest of the others. */
  private sweep(): void {
    this.sweepTimer = undefined;
    this.sweepAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const group of this.byLimit.values()) {
      // Failing a call deletes it from its group, which a Map's iteration allows.
      for (const [id, pending] of group) {
        if (pending.deadline > now) {
          next = Math.min(next, pending.deadline);
          break;
        }
        this.fail(id, new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: pending.timeoutMs }));
      }
    }
    if (next !== Number.POSITIVE_INFINITY && !this.closed) this.sweepAfter(Math.max(1, Math.ceil(next - now)), next);
  }

  /**
   * Not holding the process open: a call in flight has its server's pipes for that. Left set when
   * the calls finish (a sequential caller would otherwise make and clear one per call).
   */
  private sweepAfter(ms: number, at: number): void {
    clearTimeout(this.sweepTimer);
    this.sweepAt = at;
    this.sweepTimer = setTimeout(() => this.sweep(), ms);
    this.sweepTimer.unref();
  }

  /** A timeout or a cancel: the server is told to stop (it may still answer; that answer is dropped). */
  private fail(id: number, error: unknown): void {
    const pending = this.settle(id);
    if (!pending) return;
    this.transport
      .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(error) } } as JSONRPCMessage)
      .catch(() => undefined);
    pending.reject(error);
  }

  /** Forgets a call (its timer and abort listener); the pending entry, if it was still there. */
  private settle(id: number): Pending | undefined {
    const pending = this.find(id);
    if (!pending) return undefined;
    this.byLimit.get(pending.timeoutMs)?.delete(id);
    if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort);
    return pending;
  }

  /** The call in flight of this id, in whichever group of limits it is. */
  private find(id: number): Pending | undefined {
    for (const group of this.byLimit.values()) {
      const pending = group.get(id);
      if (pending !== undefined) return pending;
    }
    return undefined;
  }

  /** True when the message was the relay's (a response to its call, or progress of one). */
  private take(message: JSONRPCMessage): boolean {
    const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown; params?: unknown };
    if (m.method === undefined) {
      const id = relayId(m.id);
      if (id === undefined) return false;
      const pending = this.settle(id);
      // Late (after a timeout or cancel) or made up: nothing waits for it.
      if (!pending) {
        this.log.debug(`dropped a response to call ${id}, which no longer waits`);
        return true;
      }
      if (isRecord(m.error)) {
        const { code, message: text, data } = m.error;
        pending.reject(
          new McpError(
            typeof code === 'number' ? code : ErrorCode.InternalError,
            typeof text === 'string' ? text : 'the server answered with an error',
            data,
          ),
        );
      } else if (isRecord(m.result)) {
        const checked = checkResult(m.result);
        if (typeof checked === 'string') pending.reject(new Error(`the server answered the call with a malformed result: ${checked}`));
        else pending.resolve(checked);
      } else pending.reject(new Error('the server answered the call with a malformed result'));
      return true;
    }
    if (m.method === 'notifications/progress' && isRecord(m.params)) {
      const token = relayId(m.params.progressToken);
      if (token === undefined) return false;
      const pending = this.find(token);
      if (pending?.onProgress && typeof m.params.progress === 'number') {
        const { progress, total, message: text } = m.params;
        pending.onProgress({
          progress,
          ...(typeof total === 'number' ? { total } : {}),
          ...(typeof text === 'string' ? { message: text } : {}),
        });
      }
      return true;
    }
    return false;
  }
}

/**
 * One of the relay's ids, from a response id or a progress token. A server may echo it as a string
 * ("1000000007"): the SDK reads ids with Number() too, so such a server worked before the relay.
 */
function relayId(value: unknown): number | undefined {
  const id = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : Number.NaN;
  return id >= FIRST_RELAY_ID ? id : undefined;
}

/**
 * The result as the SDK's `CallToolResultSchema` accepts it (what the SDK path checked, and what a
 * local client's session checks again before it answers), or what is wrong with it, in words. Text
 * items alone, the usual answer, are checked by hand; anything else goes through the schema.
 */
function checkResult(result: Record<string, unknown>): CallToolResult | string {
  if (isPlainText(result)) return result as CallToolResult;
  const parsed = CallToolResultSchema.safeParse(result);
  if (parsed.success) return parsed.data as CallToolResult;
  const issue = parsed.error.issues[0];
  const where = (issue?.path ?? [])
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i > 0 ? `.${String(key)}` : String(key)))
    .join('');
  if (issue?.code === 'invalid_union' && issue.path.length === 2 && issue.path[0] === 'content')
    return `${where} is not a text, image, audio, resource_link or resource item`;
  return `${where || 'the result'}: ${issue?.message ?? 'not a tool result'}`;
}

function isPlainText(result: Record<string, unknown>): boolean {
  const { content, isError, structuredContent } = result;
  if (!Array.isArray(content) || result._meta !== undefined) return false;
  if (isError !== undefined && typeof isError !== 'boolean') return false;
  if (structuredContent !== undefined && !isRecord(structuredContent)) return false;
  for (const item of content as unknown[]) {
    if (
      !isRecord(item) ||
      item.type !== 'text' ||
      typeof item.text !== 'string' ||
      item.annotations !== undefined ||
      item._meta !== undefined
    )
      return false;
  }
  return true;
}
