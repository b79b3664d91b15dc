import http from 'node:http';

import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

import { forbiddenKeyPaths, formatKeyPath, mayHaveForbiddenKey } from '../../../shared/forbidden-keys';
import { LOCAL_CLIENT_ID } from '../../../shared/settings';
import type { LocalSession } from '../../../shared/status';
import { localClientName } from '../../../shared/tool-set-api';
import { guardedHttpServer, requestTarget } from '../io/guarded-http-server';
import { bearerMatches, hostAllowed, hostWithPort, isWildcardHost, originAllowed, secretDigest } from '../io/http-gate';
import { RefusalLog } from '../logs/refusal-log';
import { clientToken, PROOF_NONCE, tokenProof } from './client-tokens';
import { listenError } from './listen-failure';
import { LocalSessions, type LocalSessionsOptions, requestIds } from './local-sessions';

export { clientName, MAX_CLIENT_NAME } from './local-sessions';

export interface LocalMcpServerOptions extends LocalSessionsOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The app's token: it opens /mcp; each client's own (derived from it) opens /mcp/<client>. */
  token: string;
  /** Refused requests after the first are counted and logged together once per this long (default a minute). */
  refusalLogMs?: number;
  /** How long a client may take to send its headers, and its whole request (tests shorten them). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** How long a request's body may take once its headers are in (tests shorten it). */
  bodyTimeoutMs?: number;
  /** Connections open at once past which new ones are dropped (default 256: 100 sessions with a stream and a request each). */
  maxConnections?: number;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Refused (and logged, counted) like a wrong token: no client sends such a request line. */
const NOT_A_URL = 'the request target is not a URL';
/** Client ids whose derived token is kept rather than derived again per request (any name can be asked for: bounded). */
const MAX_KEPT_TOKENS = 64;
/** Host headers remembered as good (a client names the server one or two ways). */
const MAX_GOOD_HOSTS = 8;
/** A request target that is a path only, as a URL parser would leave it (no query, no escapes, no dot segments). */
const PLAIN_PATH = /^(?:\/[\w-]+)*\/?$/;
/** Client ids a shared-token warning is remembered for (only a holder of the app's token can add more). */
const MAX_SHARED_TOKEN_WARNINGS = 64;

/** Where OAuth clients register, authorize and get tokens when a server publishes no metadata. */
const OAUTH_PATHS = new Set(['/register', '/authorize', '/token']);
const NO_SIGN_IN =
  "Xiaozhi Tray's local MCP server has no OAuth sign-in: the bearer token was missing or wrong. Send the header " +
  '"Authorization: Bearer <token>" with the token from Xiaozhi Tray (Settings → Local MCP server), or from: xiaozhi-tray export --format <app>';

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The JSON-RPC error code of the answer's body. */
    readonly code = -32000,
    /** The request's id, when it has one. */
    readonly id: string | number | null = null,
    /** Answered as an OAuth error (`error`, `error_description`), which sign-in clients show, not as JSON-RPC. */
    readonly oauth = false,
  ) {
    super(message);
  }
}

/**
 * The app's tools as a streamable-HTTP MCP server on this machine, for Cursor, VS Code, Claude
 * Desktop (through `xiaozhi-tray connect`) and Cherry Studio. This is its HTTP front: routing, the
 * Host, Origin and bearer-token checks, CORS, bodies and refusals; what passes goes to the client's
 * MCP session (`LocalSessions`: each its own SDK `Server` over the tool set its path names). Results
 * are not shaped: local clients get every content item, whatever its size.
 */
export class LocalMcpServer {
  private readonly server: http.Server;
  private readonly sessions: LocalSessions;
  private boundPort = 0;
  private readonly refusals: RefusalLog;
  /** Clients already told (in the log) that their entry still carries the app's shared token. */
  private readonly sharedTokenWarned = new Set<string>();
  /** Each client path's token (its digest, as the bearer check compares it), derived once: an HMAC per request was most of the check. */
  private readonly tokens = new Map<string, Buffer>();
  /** Host headers that passed the check (it parses them as URLs): the same few come with every request. */
  private readonly goodHosts = new Set<string>();

  constructor(private readonly opts: LocalMcpServerOptions) {
    this.refusals = new RefusalLog(opts.log, opts.refusalLogMs ?? 60_000, 'request');
    this.sessions = new LocalSessions(opts);
    // Receiving the request is bounded (a connection with unfinished headers was kept for ever);
    // the answer is not: a client that keeps a stream open for hours is normal.
    const maxConnections = opts.maxConnections ?? 256;
    this.server = guardedHttpServer(
      {
        headersTimeoutMs: opts.headersTimeoutMs,
        requestTimeoutMs: opts.requestTimeoutMs,
        bodyTimeoutMs: opts.bodyTimeoutMs,
        maxConnections,
      },
      this.refusals,
      `refused a connection: ${maxConnections} are open, the most the local server takes`,
      (req, res) => void this.handle(req, res),
    );
  }

  /** Listens; rejects with a readable error when the port is taken or the address is not ours. */
  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => reject(listenError(error, this.opts.host, this.opts.port));
      this.server.once('error', onError);
      this.server.listen(this.opts.port, this.opts.host, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    this.boundPort = (this.server.address() as { port: number }).port;
    this.sessions.startSweeping();
    return this.boundPort;
  }

  get port(): number {
    return this.boundPort;
  }

  /** The URL clients use (without a client path). */
  get url(): string {
    const shown = isWildcardHost(this.opts.host) ? '127.0.0.1' : this.opts.host;
    return `http://${hostWithPort(shown, this.boundPort)}/mcp`;
  }

  async stop(): Promise<void> {
    this.refusals.flush();
    await this.sessions.closeAll('the local server stopped');
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
  }

  sessionList(): LocalSession[] {
    return this.sessions.list();
  }

  /**
   * Sets or their catalogs changed: each session follows its client's set, and hears
   * `list_changed` when what it is served is different from what it last learned.
   */
  refreshSessions(): void {
    this.sessions.refresh();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const bound = { host: this.opts.host, port: this.boundPort };
      const host = req.headers.host;
      if (host === undefined || !this.goodHosts.has(host)) {
        if (!hostAllowed(host, bound)) throw new HttpRefusal(403, `Invalid Host header: ${host ?? '(none)'}`);
        if (this.goodHosts.size < MAX_GOOD_HOSTS) this.goodHosts.add(host as string);
      }
      const origin = req.headers.origin;
      if (origin !== undefined && !originAllowed(origin, host, bound, 'loopback'))
        throw new HttpRefusal(403, `Invalid Origin header: ${origin}`);
      if (origin) {
        // A page on an allowed (loopback) origin, such as the MCP Inspector, needs CORS to read answers.
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Vary', 'Origin');
        res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
      }
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
          'Access-Control-Max-Age': '600',
        });
        res.end();
        return;
      }
      // A plain path (every MCP request's) is its own pathname: no URL is parsed for it.
      const target = req.url ?? '/';
      const plain = PLAIN_PATH.test(target);
      const url = plain ? undefined : requestTarget(target);
      if (!plain && !url) throw new HttpRefusal(400, NOT_A_URL);
      const path = (url ? url.pathname : target).replace(/\/+$/, '');
      if (path === '/proof') {
        this.answerProof(req, res, url ?? new URL(target, 'http://local'));
        return;
      }
      const route = /^\/mcp(?:\/([^/]+))?$/.exec(path);
      // A client refused a token may try to sign in instead (mcp-remote, the Inspector): it is told what to send.
      if (OAUTH_PATHS.has(path)) throw new HttpRefusal(404, NO_SIGN_IN, {}, -32000, null, true);
      if (path !== '/status' && !route) throw new HttpRefusal(404, `Nothing at ${path || '/'}: the MCP endpoint is /mcp`);
      let client: string;
      try {
        client = decodeURIComponent(route?.[1] ?? '');
      } catch {
        throw new HttpRefusal(400, `${path} is not a valid path (a bad %-escape)`);
      }
      if (client !== '' && !LOCAL_CLIENT_ID.test(client))
        throw new HttpRefusal(404, `"${client}" is not a client name (lowercase letters, digits, - and _)`);
      this.checkBearer(req.headers.authorization, client);
      if (path === '/status') {
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ name: 'xiaozhi-tray', version: this.opts.version, sessions: this.sessions.size }));
        return;
      }

      const sessionId = req.headers['mcp-session-id'];
      let body: unknown;
      if (req.method === 'POST') body = await readJson(req);
      let session;
      if (typeof sessionId === 'string' && sessionId !== '') {
        session = this.sessions.get(sessionId);
        // A session belongs to the path that made it; a vanished session's client must initialise again.
        if (!session || session.client !== client) throw new HttpRefusal(404, 'Session not found', {}, -32001);
      } else if (req.method === 'POST' && isInitializeRequest(body)) {
        session = await this.sessions.open(client, body.params.capabilities);
      } else {
        throw new HttpRefusal(400, 'Bad Request: Mcp-Session-Id header is required');
      }
      await this.sessions.serve(session, req, res, body);
    } catch (error) {
      if (error instanceof HttpRefusal) {
        if (error.status === 401 || error.status === 403 || error.message === NOT_A_URL)
          this.refusals.add(`refused a request from ${req.socket.remoteAddress ?? '?'}: ${error.message}`);
        if (!res.headersSent) {
          // Closed after: a refused client's body is not drained for as long as it comes.
          res.writeHead(error.status, { 'Content-Type': 'application/json', Connection: 'close', ...error.headers });
          res.end(
            JSON.stringify(
              error.oauth
                ? { error: 'invalid_request', error_description: error.message }
                : { jsonrpc: '2.0', error: { code: error.code, message: error.message }, id: error.id },
            ),
          );
        }
        return;
      }
      // Answered already by the server's guard (a body that did not arrive in time): the client's doing.
      if (res.writableEnded) return;
      this.opts.log.warn(`a local request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent)
        res
          .writeHead(500, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
    }
  }

  /**
   * Each path takes its own client's token only (the app's token opens /mcp and /status). An entry
   * written before clients had their own tokens still sends the app's token at its client's path:
   * it is told (and the log says once per client) how to get the client's own.
   */
  private checkBearer(header: string | undefined, client: string): void {
    if (bearerMatches(header, this.tokenOf(client))) return;
    const challenge = { 'WWW-Authenticate': 'Bearer realm="xiaozhi-tray"' };
    if (client !== '' && bearerMatches(header, this.opts.token)) {
      const name = localClientName(client) ?? client;
      if (this.sharedTokenWarned.size < MAX_SHARED_TOKEN_WARNINGS && !this.sharedTokenWarned.has(client)) {
        this.sharedTokenWarned.add(client);
        this.opts.log.warn(
          `${name} sent the app's shared token at /mcp/${client}; each app now has its own token: choose "Add to ${name}" again in Settings → Local MCP server (or run: xiaozhi-tray export --format ${client})`,
        );
      }
      throw new HttpRefusal(
        401,
        `This entry carries Xiaozhi Tray's shared token, which opens /mcp only: each app now has its own. In Xiaozhi Tray choose "Add to ${name}" again (Settings → Local MCP server), or run: xiaozhi-tray export --format ${client}`,
        challenge,
      );
    }
    const exported = client !== '' && localClientName(client) ? client : '<app>';
    throw new HttpRefusal(
      401,
      `Missing or wrong bearer token: copy it from Xiaozhi Tray (Settings → Local MCP server), or run: xiaozhi-tray export --format ${exported}`,
      challenge,
    );
  }

  private tokenOf(client: string): Buffer {
    const kept = this.tokens.get(client);
    if (kept !== undefined) return kept;
    const token = secretDigest(clientToken(this.opts.token, client));
    if (this.tokens.size < MAX_KEPT_TOKENS) this.tokens.set(client, token);
    return token;
  }

  /**
   * `GET /proof?client=ID&nonce=N`, open to anyone on this machine: an HMAC of the nonce (and the
   * address and port it reached) under the client's token. `connect` asks before it sends the token, so a listener that
   * took our address after the app stopped learns nothing.
   */
  private answerProof(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    if (req.method !== 'GET') throw new HttpRefusal(405, 'Use GET /proof?client=ID&nonce=N', { Allow: 'GET' });
    const nonce = url.searchParams.get('nonce') ?? '';
    const client = url.searchParams.get('client') ?? '';
    if (!PROOF_NONCE.test(nonce)) throw new HttpRefusal(400, 'nonce must be 16 to 128 letters, digits, - or _');
    if (client !== '' && !LOCAL_CLIENT_ID.test(client))
      throw new HttpRefusal(400, `"${client}" is not a client name (lowercase letters, digits, - and _)`);
    // The address and port this request reached: a listener at another one relaying it gets a proof that does not fit.
    const proof = tokenProof(
      clientToken(this.opts.token, client),
      nonce,
      req.socket.localAddress ?? '',
      req.socket.localPort ?? this.boundPort,
    );
    res
      .writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
      .end(JSON.stringify({ name: 'xiaozhi-tray', proof }));
  }
}

/** The request body as JSON, bounded; a body that is not JSON is the client's error (400). */
async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpRefusal(400, 'Parse error: the body is not JSON', {}, -32700);
  }
  // As the endpoint does: `__proto__`, `constructor` and `prototype` would reach an object's prototype.
  const refused = mayHaveForbiddenKey(text) ? forbiddenKeyPaths(body, 1)[0] : undefined;
  if (refused)
    throw new HttpRefusal(
      400,
      `Invalid params: the key at ${formatKeyPath(refused)} is not allowed`,
      {},
      ErrorCode.InvalidParams,
      requestIds(body)[0] ?? null,
    );
  return body;
}

/**
 * The body as text, bounded. Read with listeners, not `for await`: the async iterator cost a
 * promise and a stream-end watcher per request, on the path of every call.
 */
function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      reject(new HttpRefusal(413, `Request body over ${MAX_BODY_BYTES / 1048576} MB`));
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
    // Destroyed before its end (the server's body timeout, the client gone): as `for await` said it.
    req.once('close', () => {
      if (!req.complete) reject(new Error('Premature close'));
    });
  });
}
