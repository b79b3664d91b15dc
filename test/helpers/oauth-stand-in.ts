import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * A sign-in server (OAuth 2.1 authorization server) and the MCP server it protects, on one
 * 127.0.0.1 port, written by hand so that each step can be checked and made to misbehave:
 * protected resource metadata, authorization server metadata, dynamic registration, an authorize
 * endpoint that approves at once (a GET follows it back to the client's redirect, as the
 * conformance suite's does), PKCE-checked token exchange, refresh, and `insufficient_scope`.
 */

export interface OAuthStandInOptions {
  /** Seconds an access token lives (default an hour). */
  expiresIn?: number;
  /** The issuer its metadata says (default: its own URL, as it must). */
  metadataIssuer?: (base: string) => string;
  /** The `iss` its authorization answers carry (default: the issuer; null: none). */
  answerIssuer?: (base: string) => string | null;
  /** The scope a tool needs: a call without it is answered 403 insufficient_scope. */
  toolScopes?: Record<string, string>;
  /** Refuses dynamic registration (a client must be registered by hand). */
  noRegistration?: boolean;
  /** Its metadata only as an OpenID provider's (/.well-known/openid-configuration), none at the OAuth well-known path. */
  openIdOnly?: boolean;
  /** It accepts an https URL as the client id (a client metadata document, SEP-991). */
  clientMetadataDocuments?: boolean;
  /** Pre-registered clients: id → secret. */
  clients?: Record<string, string | undefined>;
  /** The sign-in servers its protected resource metadata names (default: itself). */
  authorizationServers?: (base: string) => string[];
  /** The `resource` its protected resource metadata names (default: the server's own URL, as it must). */
  resource?: (base: string) => string;
  /** Its sign-in server metadata never answers (a slow or stuck sign-in server). */
  metadataHangs?: boolean;
  /** Its sign-in server metadata answers after this long (ms). */
  metadataDelayMs?: number;
  /** Its authorize endpoint sends the browser there instead of back to the client (a hostile redirect). */
  authorizeRedirect?: string;
  /** Access tokens this long (default: a short random one); a hostile server's gigantic token. */
  accessTokenBytes?: number;
  /**
   * A server of the 2025-03-26 revision: no protected resource metadata (404, and a bare `Bearer`
   * challenge). Its sign-in server is its own origin (the conformance suite's
   * auth/2025-03-26-oauth-metadata-backcompat and -endpoint-fallback scenarios).
   */
  noResourceMetadata?: boolean;
  /** Its sign-in endpoints and issuer under this path of its origin (`/oauth`: issuer `<base>/oauth`, `<base>/oauth/token`…). */
  routePrefix?: string;
  /** No sign-in server metadata either: only the default `/authorize`, `/token` and `/register` (2025-03-26's fallback). */
  noAuthorizationMetadata?: boolean;
}

interface Token {
  scope: string;
  expiresAt: number;
  client: string;
}

export interface OAuthStandIn {
  base: string;
  /** The MCP server's URL (streamable HTTP). */
  url: string;
  /** The same server over SSE. */
  sseUrl: string;
  /** Every request's method and path, in order. */
  requests: string[];
  /** Every access token and refresh token handed out, and every code and verifier seen (none may leak). */
  secrets: string[];
  /** Refresh tokens are refused from now on (invalid_grant), as after a revocation. */
  refuseRefresh(): void;
  /** The token endpoint answers 503 (down for a while), or works again. */
  tokenEndpointDown(down: boolean): void;
  /** Every access token handed out so far expires now. */
  expireAccessTokens(): void;
  /** The scopes of the authorizations asked for. */
  authorizedScopes: string[];
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');
const newSecret = () => b64url(randomBytes(24));

export async function startOAuthStandIn(options: OAuthStandInOptions = {}): Promise<OAuthStandIn> {
  const requests: string[] = [];
  const secrets: string[] = [];
  const authorizedScopes: string[] = [];
  const clients = new Map<string, { secret?: string; redirects?: string[] }>(
    Object.entries(options.clients ?? {}).map(([id, secret]) => [id, secret === undefined ? {} : { secret }]),
  );
  const codes = new Map<string, { client: string; challenge: string; redirect: string; scope: string }>();
  const access = new Map<string, Token>();
  const refresh = new Map<string, { client: string; scope: string }>();
  let refreshRefused = false;
  let tokenDown = false;
  let base = '';

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const readBody = async (req: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const issue = (client: string, scope: string) => {
    const token = options.accessTokenBytes ? newSecret().padEnd(options.accessTokenBytes, 'x') : newSecret();
    const refreshToken = newSecret();
    secrets.push(token, refreshToken);
    access.set(token, { scope, client, expiresAt: Date.now() + (options.expiresIn ?? 3600) * 1000 });
    refresh.set(refreshToken, { client, scope });
    return { access_token: token, token_type: 'Bearer', expires_in: options.expiresIn ?? 3600, refresh_token: refreshToken, scope };
  };
  const challenge = (res: http.ServerResponse, status = 401, extra = '', resource = '/mcp') =>
    json(
      res,
      status,
      { error: status === 401 ? 'invalid_token' : 'insufficient_scope' },
      {
        'www-authenticate': options.noResourceMetadata
          ? 'Bearer'
          : `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource${resource}", scope="${extra || 'mcp:read'}"${status === 403 ? ', error="insufficient_scope"' : ''}`,
      },
    );
  const prefix = options.routePrefix ?? '';
  const issuer = () => options.metadataIssuer?.(base) ?? `${base}${prefix}`;
  const clientOf = (req: http.IncomingMessage, form: URLSearchParams): string | undefined => {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic
      ? Buffer.from(basic[1]!, 'base64').toString().split(':')
      : [form.get('client_id') ?? '', form.get('client_secret') ?? undefined];
    const client = clients.get(id ?? '');
    if (!client || (client.secret !== undefined && client.secret !== secret)) return undefined;
    return id;
  };

  const protectedServer = (token: Token) => {
    const server = new Server({ name: 'protected', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: ['whoami', ...Object.keys(options.toolScopes ?? {})].map((name) => ({ name, inputSchema: { type: 'object' as const } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: 'text', text: `${request.params.name} as ${token.client}` }],
    }));
    return server;
  };

  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const mcp = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const token = access.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (!token || token.expiresAt < Date.now()) return challenge(res);
    const text = req.method === 'POST' ? await readBody(req) : '';
    const message = text ? (JSON.parse(text) as { method?: string; params?: { name?: string } }) : {};
    const needs = message.method === 'tools/call' ? options.toolScopes?.[message.params?.name ?? ''] : undefined;
    if (needs && !token.scope.split(' ').includes(needs)) return challenge(res, 403, `${token.scope} ${needs}`);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      if (typeof id === 'string')
        return json(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
      const made: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => newSecret(),
        onsessioninitialized: (sid) => void sessions.set(sid, made),
      });
      await protectedServer(token).connect(made);
      transport = made;
    }
    await transport.handleRequest(req, res, text ? JSON.parse(text) : undefined);
  };

  const sseSessions = new Map<string, SSEServerTransport>();
  const sse = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const token = access.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (!token || token.expiresAt < Date.now()) return challenge(res, 401, '', '/sse');
    if (req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sseSessions.set(transport.sessionId, transport);
      res.on('close', () => sseSessions.delete(transport.sessionId));
      return protectedServer(token).connect(transport);
    }
    const transport = sseSessions.get(url.searchParams.get('sessionId') ?? '');
    if (!transport) return json(res, 404, { error: 'unknown session' });
    await transport.handlePostMessage(req, res);
  };

  const httpServer = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      requests.push(`${req.method} ${url.pathname}`);
      // The sign-in endpoints answer under their prefix (the requests list keeps the path as asked).
      if (prefix && url.pathname.startsWith(`${prefix}/`)) url.pathname = url.pathname.slice(prefix.length);
      if (url.pathname === '/mcp') return mcp(req, res);
      if (url.pathname === '/sse' || url.pathname === '/messages') return sse(req, res, url);
      if (url.pathname.startsWith('/.well-known/oauth-protected-resource') && !options.noResourceMetadata)
        return json(res, 200, {
          resource: options.resource?.(base) ?? `${base}${url.pathname.endsWith('/sse') ? '/sse' : '/mcp'}`,
          authorization_servers: options.authorizationServers?.(base) ?? [base],
          scopes_supported: ['mcp:read'],
        });
      const metadataPath = options.openIdOnly ? '/.well-known/openid-configuration' : '/.well-known/oauth-authorization-server';
      if (url.pathname === metadataPath && options.metadataHangs) return; // held open until close()
      if (url.pathname === metadataPath && options.metadataDelayMs)
        await new Promise((resolve) => setTimeout(resolve, options.metadataDelayMs));
      if (url.pathname === metadataPath && !options.noAuthorizationMetadata)
        return json(res, 200, {
          ...(options.openIdOnly
            ? { jwks_uri: `${base}/jwks`, subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'] }
            : {}),
          ...(options.clientMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
          issuer: issuer(),
          authorization_endpoint: `${base}${prefix}/authorize`,
          token_endpoint: `${base}${prefix}/token`,
          ...(options.noRegistration ? {} : { registration_endpoint: `${base}${prefix}/register` }),
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
          authorization_response_iss_parameter_supported: true,
        });
      if (url.pathname === '/register' && req.method === 'POST' && !options.noRegistration) {
        const metadata = JSON.parse(await readBody(req)) as { redirect_uris?: string[] };
        const id = `client-${newSecret()}`;
        clients.set(id, { redirects: metadata.redirect_uris ?? [] });
        return json(res, 201, { ...metadata, client_id: id, client_id_issued_at: Math.floor(Date.now() / 1000) });
      }
      if (url.pathname === '/authorize') {
        const q = url.searchParams;
        // A client metadata document's URL is taken as its id (fetching it is the real server's job, not this test's).
        if (options.clientMetadataDocuments && q.get('client_id')?.startsWith('https://')) clients.set(q.get('client_id')!, {});
        const client = clients.get(q.get('client_id') ?? '');
        const redirect = q.get('redirect_uri') ?? '';
        if (!client || (client.redirects && !client.redirects.includes(redirect))) return json(res, 400, { error: 'invalid_request' });
        if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || q.get('response_type') !== 'code')
          return json(res, 400, { error: 'invalid_request' });
        const code = newSecret();
        secrets.push(code);
        const scope = q.get('scope') ?? '';
        authorizedScopes.push(scope);
        codes.set(code, { client: q.get('client_id')!, challenge: q.get('code_challenge')!, redirect, scope });
        const back = new URL(redirect);
        back.searchParams.set('code', code);
        if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
        const iss = options.answerIssuer ? options.answerIssuer(base) : options.noAuthorizationMetadata ? null : issuer();
        if (iss !== null) back.searchParams.set('iss', iss);
        return res.writeHead(302, { location: options.authorizeRedirect ?? back.href }).end();
      }
      if (url.pathname === '/token' && tokenDown) return json(res, 503, { error: 'temporarily_unavailable' });
      if (url.pathname === '/token' && req.method === 'POST') {
        const form = new URLSearchParams(await readBody(req));
        const client = clientOf(req, form);
        if (!client) return json(res, 401, { error: 'invalid_client' });
        if (form.get('grant_type') === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          secrets.push(verifier);
          const hashed = b64url(createHash('sha256').update(verifier).digest());
          if (!code || code.client !== client || code.challenge !== hashed || code.redirect !== form.get('redirect_uri'))
            return json(res, 400, { error: 'invalid_grant' });
          return json(res, 200, issue(client, code.scope));
        }
        if (form.get('grant_type') === 'refresh_token') {
          const held = refresh.get(form.get('refresh_token') ?? '');
          if (!held || held.client !== client || refreshRefused) return json(res, 400, { error: 'invalid_grant' });
          return json(res, 200, issue(client, held.scope));
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      json(res, 404, { error: 'not_found' });
    })().catch(() => res.headersSent || res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(httpServer.address() as { port: number }).port}`;
  return {
    base,
    url: `${base}/mcp`,
    sseUrl: `${base}/sse`,
    requests,
    secrets,
    authorizedScopes,
    refuseRefresh: () => void (refreshRefused = true),
    tokenEndpointDown: (down) => void (tokenDown = down),
    expireAccessTokens: () => {
      for (const token of access.values()) token.expiresAt = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const transport of [...sessions.values(), ...sseSessions.values()]) void transport.close();
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
