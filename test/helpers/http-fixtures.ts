import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A tool as a server lists it, right or wrong (the SDK's server does not check its own list). */
export type ListedTool = Record<string, unknown>;

/** A small MCP server (one `remote_echo` tool, or the tools given) for each session of the HTTP fixtures. */
function makeServer(label: string, tools?: ListedTool[]): Server {
  const server = new Server({ name: `remote-${label}`, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (tools ?? [
      { name: 'remote_echo', description: `Echo over ${label}`, inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    ]) as never,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: `${label}: ${String(request.params.arguments?.text)}` }],
  }));
  return server;
}

export interface HttpFixture {
  url: string;
  /** Headers of every request received, lower-cased names. */
  requests: http.IncomingHttpHeaders[];
  /** Drops every session, as a restarted server would: the next request gets 404. */
  forgetSessions(): void;
  close(): Promise<void>;
}

async function listen(server: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return (server.address() as { port: number }).port;
}

export async function startStreamableHttpFixture(port = 0, tools?: ListedTool[]): Promise<HttpFixture> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const requests: http.IncomingHttpHeaders[] = [];
  const httpServer = http.createServer(async (req, res) => {
    requests.push(req.headers);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport) {
        res.writeHead(404).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      await transport.handleRequest(req, res);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id): void => {
        sessions.set(id, transport);
      },
    });
    await makeServer('http', tools).connect(transport);
    await transport.handleRequest(req, res);
  });
  const bound = await listen(httpServer, port);
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    requests,
    forgetSessions: () => sessions.clear(),
    close: () => closeServer(httpServer),
  };
}

export async function startSseFixture(): Promise<HttpFixture> {
  const sessions = new Map<string, SSEServerTransport>();
  const requests: http.IncomingHttpHeaders[] = [];
  const httpServer = http.createServer(async (req, res) => {
    requests.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      await makeServer('sse').connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) {
        res.writeHead(404).end('unknown session');
        return;
      }
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  const port = await listen(httpServer);
  return {
    url: `http://127.0.0.1:${port}/sse`,
    requests,
    forgetSessions: () => sessions.clear(),
    close: () => closeServer(httpServer),
  };
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
