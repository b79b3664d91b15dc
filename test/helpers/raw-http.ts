import net from 'node:net';

/**
 * HTTP as no client library would send it, on real sockets: request lines exactly as given,
 * headers a byte at a time, connections held open half-sent.
 */

/** Sends `head` as it is on a new connection; the answer's status, or 0 when the server closed without one. */
export function statusOf(port: number, head: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (/^HTTP\/1\.1 \d{3}/.test(text)) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  });
}

/** Writes `head` one byte at a time, `everyMs` apart, until the server closes the socket: what it answered, and how many bytes it took. */
export function dribble(port: number, head: string, everyMs: number): Promise<{ answer: string; bytesSent: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < head.length && socket.writable) socket.write(head[sent++] as string);
    }, everyMs);
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, bytesSent: sent });
    });
  });
}

/** A connection that sent the start of a request and holds it open; resolves once connected. */
export function heldSocket(port: number, start: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(start);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/**
 * `count` connections that sent whole headers and the first byte of a 100 KB body, then a byte
 * every 2 s, for as long as the server keeps them; destroy them when done.
 */
export async function slowBodies(port: number, count: number, head: string): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = await heldSocket(port, `${head}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    const timer = setInterval(() => socket.writable && socket.write(' '), 2000);
    socket.on('close', () => clearInterval(timer));
    sockets.push(socket);
  }
  return sockets;
}
