import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

import { isRecord } from '../../../shared/is-record';
import { isPosting } from './call-relay';

/**
 * MCP revision 2026-07-28 (the TypeScript SDK v2's servers) has no `initialize`: a client asks
 * `server/discover`, and every request then carries the protocol version, client info and client
 * capabilities in `params._meta` (the "envelope"); list changes come on a `subscriptions/listen`
 * request instead of unsolicited; `ping` is gone. A server that speaks only that answers our 2025
 * `initialize` with -32022 and the versions it does speak.
 *
 * Our SDK (1.x) speaks only the 2025 revisions, and the rest of the bridge (the call relay, list
 * refreshes, health pings) is built on its `Client`. So the old protocol stays first, and only a
 * server that refuses it that way is spoken to in 2026-07-28, by this transport between the
 * `Client` and the real one: it asks `server/discover` on the same connection and hands the
 * `Client` an `initialize` answer made from it, adds the envelope to everything sent, opens the
 * listen for tool list changes, and answers `ping` with a `server/discover`. Over HTTP the headers
 * the revision requires are added by `modernHttpFetch` (modern-http-fetch.ts).
 */

/** The revisions of the 2026 wire this bridge speaks, preferred first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** The JSON-RPC error a server answers a protocol version it does not speak with (since 2026-07-28; before: -32602). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** Our own requests' ids: strings, so they never meet the `Client`'s or the call relay's numbers. */
const OWN_ID_PREFIX = 'xiaozhi-tray:';

/** The modern version a refusal of `initialize` offers that we speak, if it is one (-32022, its versions in `data.supported`). */
export function offeredModernVersion(error: unknown): string | undefined {
  if (!isRecord(error) || error.code !== UNSUPPORTED_PROTOCOL_VERSION || !isRecord(error.data)) return undefined;
  const supported = error.data.supported;
  if (!Array.isArray(supported)) return undefined;
  return MODERN_PROTOCOL_VERSIONS.find((version) => supported.includes(version));
}

/** The modern protocol version a message's envelope names, if any. */
export function envelopeVersion(message: unknown): string | undefined {
  const params = isRecord(message) ? message.params : undefined;
  const meta = isRecord(params) ? params._meta : undefined;
  const version = isRecord(meta) ? meta[PROTOCOL_VERSION_KEY] : undefined;
  return typeof version === 'string' && MODERN_PROTOCOL_VERSIONS.includes(version) ? version : undefined;
}

type Message = Record<string, unknown> & { id?: RequestId; method?: string; params?: Record<string, unknown> };

export class ProtocolNegotiation implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  /** The 2026 revision spoken with this server, once it refused the old ones. */
  private modern: string | undefined;
  /** The `Client`'s `initialize`, until it is answered. */
  private initialize: { id: RequestId; params: Record<string, unknown> } | undefined;
  /** Our own requests (server/discover, subscriptions/listen) waiting for their answer. */
  private readonly own = new Map<RequestId, (response: Message | undefined) => void>();
  /** The `Client`'s pings, sent as server/discover: answered with an empty result. */
  private readonly pings = new Set<RequestId>();
  private nextId = 0;

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => this.receive(message as unknown as Message, extra);
    inner.onclose = () => {
      for (const answer of this.own.values()) answer(undefined);
      this.own.clear();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  /** The revision spoken when it is 2026-07-28 or later (undefined for the old protocol). */
  get modernVersion(): string | undefined {
    return this.modern;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    // The 2025 version the `Client` was told: the 2026 wire names its own, in each message.
    if (!this.modern) this.inner.setProtocolVersion?.(version);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as unknown as Message;
    if (!this.modern) {
      if (m.method === 'initialize' && m.id !== undefined) this.initialize = { id: m.id, params: m.params ?? {} };
      return this.inner.send(message, options);
    }
    // A response (to a request of the server's: the 2026 wire has none) has no params to carry an envelope.
    if (m.method === undefined) return this.inner.send(message, options);
    if (m.method === 'notifications/initialized') return Promise.resolve();
    if (m.method === 'ping' && m.id !== undefined) {
      this.pings.add(m.id);
      return this.inner.send(this.enveloped({ ...m, method: 'server/discover', params: {} }), options);
    }
    return this.inner.send(this.enveloped(m), options);
  }

  /**
   * The call relay's send: straight to the program's transport without a promise while the old
   * protocol is spoken (`PostingTransport`), otherwise `send`'s promise.
   */
  post(message: JSONRPCMessage): Error | undefined | Promise<void> {
    const { inner } = this;
    if (this.modern || !isPosting(inner)) return this.send(message);
    return inner.post(message);
  }

  private enveloped(m: Message): JSONRPCMessage {
    const initialize = this.initialize?.params ?? {};
    const envelope = {
      [PROTOCOL_VERSION_KEY]: this.modern,
      [CLIENT_INFO_KEY]: initialize.clientInfo,
      // Nothing the server could ask of us in-band (input_required) is answered on this wire yet.
      [CLIENT_CAPABILITIES_KEY]: {},
    };
    const params = m.params ?? {};
    const meta = isRecord(params._meta) ? params._meta : {};
    return { ...m, params: { ...params, _meta: { ...envelope, ...meta } } } as unknown as JSONRPCMessage;
  }

  private deliver(message: Message, extra?: Parameters<NonNullable<Transport['onmessage']>>[1]): void {
    this.onmessage?.(message as unknown as JSONRPCMessage, extra);
  }

  private receive(message: Message, extra?: Parameters<NonNullable<Transport['onmessage']>>[1]): void {
    const id = message.id;
    const isResponse = id !== undefined && ('result' in message || 'error' in message);
    if (isResponse) {
      const own = this.own.get(id);
      if (own) {
        this.own.delete(id);
        own(message);
        return;
      }
      if (this.initialize && id === this.initialize.id) {
        const version = this.modern ? undefined : offeredModernVersion(message.error);
        if (version) {
          void this.discover(version, this.initialize.id);
          return;
        }
      }
      if (this.modern) {
        if (this.pings.delete(id)) {
          this.deliver('error' in message ? message : { jsonrpc: '2.0', id, result: {} }, extra);
          return;
        }
        const kind = isRecord(message.result) ? message.result.resultType : undefined;
        if (kind !== undefined && kind !== 'complete') {
          // An answer that asks for input (elicitation in-band): not handled on this wire yet.
          this.deliver({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: unhandledResult(kind) } }, extra);
          return;
        }
      }
    } else if (this.modern && message.method === 'notifications/subscriptions/acknowledged') return;
    this.deliver(message, extra);
  }

  /** Asks `server/discover` in `version`, and answers the `Client`'s `initialize` (id `initializeId`) with what it says. */
  private async discover(version: string, initializeId: RequestId): Promise<void> {
    this.modern = version;
    const response = await this.request('server/discover', {});
    if (!response) return;
    if ('error' in response || !isRecord(response.result)) {
      this.deliver({ jsonrpc: '2.0', id: initializeId, error: response.error ?? { code: ErrorCode.InternalError, message: 'no result' } });
      return;
    }
    const discovered = response.result;
    // Tasks are not offered to the Client: its task requests (tasks/result…) are the 2025 revision's.
    // A tool that needs one is called plainly, and a task answer comes back as an error that says so.
    const { tasks: _tasks, ...capabilities } = isRecord(discovered.capabilities) ? discovered.capabilities : {};
    const meta = isRecord(discovered._meta) ? discovered._meta : {};
    const serverInfo = isRecord(meta[SERVER_INFO_KEY]) ? meta[SERVER_INFO_KEY] : { name: '', version: '' };
    this.deliver({
      jsonrpc: '2.0',
      id: initializeId,
      result: {
        // What the `Client` offered: the 2026 revision is spoken below it, not by it.
        protocolVersion: this.initialize?.params.protocolVersion,
        capabilities,
        serverInfo,
        ...(typeof discovered.instructions === 'string' ? { instructions: discovered.instructions } : {}),
      },
    });
    const tools = isRecord(capabilities.tools) ? capabilities.tools : {};
    // Held open by the server for as long as the connection: its notifications carry the changes.
    if (tools.listChanged === true) void this.request('subscriptions/listen', { notifications: { toolsListChanged: true } });
  }

  /**
   * Sends a request of our own; resolves with its response (an error one when it could not be sent:
   * the `Client`'s `initialize` must not wait for its timeout), or undefined when the connection closed first.
   */
  private request(method: string, params: Record<string, unknown>): Promise<Message | undefined> {
    const id = `${OWN_ID_PREFIX}${method}:${this.nextId++}`;
    return new Promise((resolve) => {
      this.own.set(id, resolve);
      this.inner.send(this.enveloped({ jsonrpc: '2.0', id, method, params })).catch((error: unknown) => {
        if (!this.own.delete(id)) return;
        const message = `${method} could not be sent: ${error instanceof Error ? error.message : String(error)}`;
        resolve({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message } });
      });
    });
  }
}

const unhandledResult = (kind: unknown): string =>
  `the server answered with a result of type ${JSON.stringify(kind).slice(0, 40)}, which this app does not handle yet (MCP 2026-07-28)`;
