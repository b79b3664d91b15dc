import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** Where the running app's local server is, asked again when the app may have restarted. */
export interface RelayTarget {
  url: string;
  token: string;
}

export interface RelayOptions {
  /** The stdio side: the client (Claude Desktop) that started `connect`. */
  local: Transport;
  /** Where the app is at the start (already proven to know the token). */
  initial: RelayTarget;
  /**
   * Where the app is now, asked again when it stops answering or refuses the token (it restarted,
   * maybe on a new port with a new token). Rejects with a readable error when it is not there.
   */
  target: () => Promise<RelayTarget>;
  /** One line for the client's log (stderr). */
  say(line: string): void;
  /** A transport toward the app; tests may pass their own. */
  remote?: (target: RelayTarget) => Transport & { setProtocolVersion?(version: string): void; terminateSession?(): Promise<void> };
}

const REOPEN_ID = 'xiaozhi-tray-connect-reopen';

/**
 * Relays MCP messages between a stdio client and the app's streamable-HTTP server, unchanged: the
 * app sees the client's own `initialize` (and name), the client sees the app's answers and
 * `list_changed`. When the app restarted (its session is gone, its token or port changed), the relay
 * finds it again, opens a new session with the client's first `initialize` and goes on; while the
 * app is down, requests get a readable error.
 */
export class StdioRelay {
  private remote: ReturnType<NonNullable<RelayOptions['remote']>>;
  private initialize: JSONRPCRequest | undefined;
  /** Until the app answers initialize (and names the session), other messages wait. */
  private initialized: Promise<void> = Promise.resolve();
  private onInitialized: (() => void) | undefined;
  private reopening: Promise<void> | undefined;
  /** Counts the remotes opened: a request that failed on an earlier one is only sent again. */
  private generation = 0;
  private readonly pendingInternal = new Map<string | number, (message: JSONRPCMessage) => void>();
  private closed = false;
  private closeResolve: (() => void) | undefined;
  readonly done: Promise<void>;

  constructor(private readonly opts: RelayOptions) {
    this.done = new Promise((resolve) => (this.closeResolve = resolve));
    this.remote = this.openRemote(opts.initial);
  }

  async start(): Promise<void> {
    this.opts.local.onmessage = (message) => void this.forward(message);
    this.opts.local.onclose = () => void this.close();
    this.opts.local.onerror = (error) => this.opts.say(`stdio: ${error.message}`);
    await this.opts.local.start();
    await this.remote.start();
  }

  /** The client went away: end the app's session too (releases it at once), then stop. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.remote.terminateSession?.().catch(() => undefined);
    await this.remote.close().catch(() => undefined);
    await this.opts.local.close().catch(() => undefined);
    this.closeResolve?.();
  }

  private openRemote(target: RelayTarget): ReturnType<NonNullable<RelayOptions['remote']>> {
    this.generation++;
    const remote = this.opts.remote
      ? this.opts.remote(target)
      : new StreamableHTTPClientTransport(new URL(target.url), {
          requestInit: { headers: { Authorization: `Bearer ${target.token}` } },
          fetch: isolatedSignalFetch,
        });
    remote.onmessage = (message: JSONRPCMessage) => this.fromApp(message);
    // The notification stream reconnects by itself; its failures are not the client's business.
    remote.onerror = () => undefined;
    return remote;
  }

  private fromApp(message: JSONRPCMessage): void {
    const id = 'id' in message ? message.id : undefined;
    const internal = id !== undefined ? this.pendingInternal.get(id) : undefined;
    if (internal) {
      this.pendingInternal.delete(id as string | number);
      internal(message);
      return;
    }
    if (this.initialize && id === this.initialize.id) {
      if ('result' in message)
        this.remote.setProtocolVersion?.(String((message.result as { protocolVersion?: unknown }).protocolVersion ?? ''));
      this.onInitialized?.();
    }
    void this.opts.local.send(message).catch(() => undefined);
  }

  private async forward(message: JSONRPCMessage): Promise<void> {
    if (isInitializeRequest(message)) {
      this.initialize = message as JSONRPCRequest;
      this.initialized = new Promise((resolve) => (this.onInitialized = resolve));
    } else await this.initialized;
    let generation = this.generation;
    try {
      await this.reopening;
      generation = this.generation;
      await this.remote.send(message);
    } catch (error) {
      if (worthReopening(error) && this.initialize) {
        try {
          // Another request found the app again meanwhile: this one only goes again.
          if (generation === this.generation) await this.reopen(message !== this.initialize);
          else await this.reopening;
          await this.remote.send(message);
          return;
        } catch (again) {
          error = again;
        }
      }
      if (message === this.initialize) this.onInitialized?.();
      this.opts.say(`could not reach Xiaozhi Tray: ${describe(error)}`);
      if (isJSONRPCRequest(message)) {
        await this.opts.local
          .send({
            jsonrpc: '2.0',
            id: message.id,
            error: {
              code: ErrorCode.ConnectionClosed,
              message: `Xiaozhi Tray is not reachable (${describe(error)}). Start it, then try again.`,
            },
          })
          .catch(() => undefined);
      }
    }
  }

  /**
   * A new session on the (restarted) app: where the state file says it is now, with the token it
   * proves to know, opened with the client's own initialize (unless that is what is being sent).
   */
  private reopen(initialize: boolean): Promise<void> {
    this.reopening ??= (async () => {
      const target = await this.opts.target();
      await this.remote.close().catch(() => undefined);
      this.remote = this.openRemote(target);
      await this.remote.start();
      if (!initialize) return;
      const init = this.initialize as JSONRPCRequest;
      const answered = new Promise<JSONRPCMessage>((resolve) => this.pendingInternal.set(REOPEN_ID, resolve));
      await this.remote.send({ ...init, id: REOPEN_ID });
      const answer = await answered;
      if ('error' in answer) throw new Error(`the app refused a new session: ${JSON.stringify(answer.error)}`);
      this.remote.setProtocolVersion?.(String((answer as { result: { protocolVersion?: unknown } }).result.protocolVersion ?? ''));
      await this.remote.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      this.opts.say('Xiaozhi Tray restarted: opened a new session');
    })().finally(() => {
      this.reopening = undefined;
    });
    return this.reopening;
  }
}

/**
 * The SDK's client transport hands one shared AbortSignal to every fetch, and undici leaves a
 * listener on it per request until garbage collection: over a long relay that piles up (and
 * warns on stderr). Each request gets its own signal, tied to the shared one only while it runs:
 * for an event stream (the app answers each request as one, and the notification stream is one)
 * until the stream ends or is cancelled.
 */
export async function isolatedSignalFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const parent = init?.signal;
  if (!parent) return fetch(url, init);
  const own = new AbortController();
  const forward = () => own.abort(parent.reason);
  const release = () => parent.removeEventListener('abort', forward);
  if (parent.aborted) own.abort(parent.reason);
  else parent.addEventListener('abort', forward, { once: true });
  try {
    const response = await fetch(url, { ...init, signal: own.signal });
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      release();
      return response;
    }
    return new Response(releasedAtEnd(response.body, release), response);
  } catch (error) {
    release();
    throw error;
  }
}

/** The same stream, calling `release` once it ends, fails or is cancelled. */
function releasedAtEnd(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        release();
        controller.close();
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

/**
 * The app lost our session (404, 400), no longer takes the token (401: it restarted with a new one),
 * or is not at its address any more: worth finding it again.
 */
function worthReopening(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404 || error.code === 400 || error.code === 401;
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  if (cause === 'ECONNREFUSED') return 'nothing listens at its address';
  // Said inside parentheses: a sentence of connect's own ("… has ended.") loses its full stop.
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}
