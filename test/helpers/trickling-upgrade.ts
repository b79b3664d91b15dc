import net from 'node:net';

/**
 * A program that answers a WebSocket upgrade a byte at a time and never ends the reply: the socket is
 * never idle, so ws's handshakeTimeout (an idle timeout) never fires. Its ws:// address with a token.
 */
export async function startTricklingUpgrade(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.write('HTTP/1.1 101 Switching Protocols\r\n');
    const drip = setInterval(() => socket.write('X'), 100);
    socket.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as net.AddressInfo).port}/mcp/?token=abc`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
