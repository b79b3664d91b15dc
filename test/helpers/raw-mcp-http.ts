import http from 'node:http';

/** One JSON-RPC message as a test server receives it. */
export interface RawMessage {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

export interface RawMcpHttp {
  url: string;
  /** Every request received (method and JSON-RPC method, or the HTTP method for GET/DELETE). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A streamable-HTTP MCP server written by hand, for servers the SDK would refuse to be: `answer`
 * gets each POSTed message and writes the whole response itself (status, headers, body), or returns
 * false for the usual answer (initialize, tools/list with one tool `noop`, 202 for notifications).
 */
export async function startRawMcpHttp(answer: (message: RawMessage, res: http.ServerResponse) => boolean): Promise<RawMcpHttp> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      requests.push(req.method ?? '?');
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      let message: RawMessage;
      try {
        message = JSON.parse(body) as RawMessage;
      } catch {
        res.writeHead(400).end();
        return;
      }
      requests.push(`POST ${message.method ?? 'response'}`);
      if (answer(message, res)) return;
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'noop', inputSchema: { type: 'object' } }] }
            : {};
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `chunks` chunks of `chunk` to `res`, waiting for each to drain, until done or the client goes away. */
export function pump(res: http.ServerResponse, chunk: string, chunks: number, onWrite: (bytes: number) => void, end = ''): void {
  let left = chunks;
  const next = () => {
    while (!res.destroyed && left > 0) {
      left--;
      onWrite(chunk.length);
      if (!res.write(chunk)) {
        res.once('drain', next);
        return;
      }
    }
    if (!res.destroyed) res.end(end);
  };
  next();
}
