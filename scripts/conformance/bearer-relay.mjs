// A loopback relay that adds `Authorization: Bearer TOKEN` to every request it forwards.
//
// Why it exists: the conformance suite's `server --url` mode (0.1.16) connects with a bare SDK client
// transport and plain fetch calls, with no way to give it a header, while our local MCP server answers
// only requests that carry its bearer token. Everything else passes through untouched, byte for byte and
// streamed both ways (SSE included). A Host or Origin naming the relay itself is rewritten to name the
// hub (which checks the port too), as if the suite had connected to the hub; any other Host or Origin goes
// through as sent, so the suite's DNS-rebinding scenario tests the hub's own check rather than the relay.
import http from 'node:http';

/** Starts the relay on 127.0.0.1 (a free port); resolves with its URL (same path as `target`) and `close()`. */
export function startBearerRelay(target, token) {
  const upstream = new URL(target);
  const sockets = new Set();
  let self = '';
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === self) headers.host = upstream.host;
    if (headers.origin === `http://${self}`) headers.origin = upstream.origin;
    const forwarded = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
        // A client that stops reading an SSE stream ends it for the hub as well.
        res.on('close', () => answer.destroy());
      },
    );
    forwarded.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`relay: ${error.message}`);
    });
    req.on('aborted', () => forwarded.destroy());
    req.pipe(forwarded);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      self = `127.0.0.1:${server.address().port}`;
      const url = new URL(upstream.pathname, `http://${self}`).href;
      resolve({
        url,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
