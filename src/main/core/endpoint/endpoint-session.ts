import { randomUUID } from 'node:crypto';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type WebSocket from 'ws';

import type { Language } from '../../../shared/i18n/translate';
import type { Corkable } from '../io/cork';
import type { Logger } from '../logs/log-book';
import type { EndpointTools } from '../serving/endpoint-catalogs';
import type { SettlingTools } from '../serving/settling-tools';
import { EndpointCalls, type LongCallOptions } from './endpoint-calls';
import { SessionNames } from './session-names';
import { WsServerTransport } from './ws-server-transport';

export interface EndpointSessionOptions {
  /** What the endpoint is served; lists and calls of names not there yet wait for servers still starting. */
  tools: SettlingTools<EndpointTools>;
  /** The endpoint's name, as the call history records the caller. */
  caller: string;
  /** The endpoint's id: its background tasks are its own, whatever its name. */
  owner?: string;
  log: Logger;
  maxMessageBytes: () => number;
  version: string;
  /** Calls past the caller's patience are answered and go on in the background (absent: awaited). */
  longCalls?: LongCallOptions | undefined;
  /** The user's language, for what the bridge words itself. */
  language?: () => Language;
  /** xiaozhi read the tools (a tools/list page was answered): the window says so. */
  onToolsRead?: () => void;
  /** The network socket under the WebSocket (`upgradedSocket`), which answers are corked on. */
  raw?: Corkable;
}

/**
 * The MCP session over one open endpoint socket: the SDK's low-level `Server` answers initialize,
 * tools/list and ping over a transport written around the socket, and `tools/call` is answered
 * below it by `EndpointCalls`. It lasts as long as the socket; the link makes one per connection.
 */
export class EndpointSession {
  private readonly server: Server;
  private readonly calls: EndpointCalls;
  private initializedFlag = false;
  /** The catalog version this session last learned of; only newer changes are announced. */
  private announcedVersion = -1;
  /** What xiaozhi last read with tools/list in this session (tools over every page, and when): the window's "xiaozhi has read N tools". */
  private read: { count: number; at: number } | undefined;

  constructor(
    socket: WebSocket,
    private readonly opts: EndpointSessionOptions,
  ) {
    const { tools, log } = opts;
    const names = new SessionNames(tools);
    const server = new Server({ name: 'xiaozhi-tray', version: opts.version }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, (request, extra) => {
      const cursor = request.params?.cursor;
      return tools.list((served) => {
        // What this answer shows needs no list_changed later (the first page fixes the version).
        if (cursor === undefined && this.initializedFlag) this.announcedVersion = served.version;
        const page = served.page(cursor, JSON.stringify(extra.requestId));
        names.learn(page.tools.map((tool) => tool.name));
        this.read = { count: (cursor === undefined ? 0 : (this.read?.count ?? 0)) + page.tools.length, at: Date.now() };
        this.opts.onToolsRead?.();
        return page;
      }, cursor === undefined);
    });
    server.oninitialized = () => {
      this.initializedFlag = true;
      this.announcedVersion = tools.current.version;
      const client = server.getClientVersion();
      // At every device session: for whoever debugs the link, not a line for the user (nor in English among theirs).
      log.debug(`session initialised by ${client?.name ?? 'client'} ${client?.version ?? ''}`.trim());
    };
    server.onerror = (error) => log.debug(`protocol: ${error.message}`);
    const transport = new WsServerTransport(socket, log, opts.maxMessageBytes, opts.raw);
    // tools/call skips the SDK's Protocol (one parse each way); everything else goes through it.
    const calls = new EndpointCalls({
      tools: names,
      caller: opts.caller,
      ...(opts.owner !== undefined ? { owner: opts.owner } : {}),
      send: (message) => void transport.post(message),
      log,
      ...(opts.longCalls ? { longCalls: opts.longCalls } : {}),
      // Built-in tools bind what they hold (a confirmation) to this one connection.
      session: randomUUID(),
      ...(opts.language ? { language: opts.language } : {}),
    });
    transport.ontoolcall = (request, bytes) => calls.handle(request, bytes);
    transport.oncancelled = (requestId, reason) => calls.cancel(requestId, reason);
    this.calls = calls;
    this.server = server;
    server.connect(transport).catch((error: unknown) => log.error(`could not start the MCP session: ${String(error)}`));
  }

  /** The tools xiaozhi read in its latest tools/list of this session (every page so far), if it listed them. */
  get toolsRead(): { count: number; at: number } | undefined {
    return this.read;
  }

  /** The other side finished the handshake (notifications/initialized). */
  get initialized(): boolean {
    return this.initializedFlag;
  }

  /** Tells the endpoint the catalog changed (cheap; xiaozhi may only re-read per conversation). */
  notifyToolsChanged(): void {
    const { tools } = this.opts;
    // A list waiting for servers to start will show the change itself: announcing it too would only
    // have the broker list again (and wait again).
    if (!this.initializedFlag || tools.listsWaiting > 0 || tools.current.version === this.announcedVersion) return;
    this.announcedVersion = tools.current.version;
    this.server.sendToolListChanged().catch(() => undefined);
  }

  /**
   * The socket is going. Lost (`keepCalls`): calls that may go on in the background go on as tasks
   * of the endpoint, the rest are cancelled; stopped on purpose: every call is cancelled.
   */
  close(keepCalls = false): void {
    this.calls.abortAll(keepCalls);
    this.initializedFlag = false;
    this.server.onclose = undefined;
    void this.server.close().catch(() => undefined);
  }
}
