import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { upgradedSocket, WsServerTransport } from '../../../../src/main/core/endpoint/ws-server-transport';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { waitFor } from '../../../helpers/wait';

let xiaozhi: FakeXiaozhi | undefined;
let socket: WebSocket | undefined;
afterEach(async () => {
  socket?.terminate();
  await xiaozhi?.close();
  xiaozhi = socket = undefined;
});

describe("the endpoint's answers", () => {
  it('leave a busy turn corked on the network socket under the WebSocket (its upgrade response says which), all of them arriving', async () => {
    xiaozhi = await FakeXiaozhi.start();
    const ws = new WebSocket(xiaozhi.url(), { perMessageDeflate: false });
    socket = ws;
    const raw = upgradedSocket(ws);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const session = await xiaozhi.connection(0);
    const network = raw();
    expect(network).toBeDefined();
    const transport = new WsServerTransport(ws, new LogBook().logger('test'), () => 8192, network);
    await transport.start();
    const corked: number[] = [];
    for (let i = 0; i < 20; i++) {
      transport.post({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `n${i}` } });
      corked.push(network?.writableCorked ?? 0);
    }
    // The first write of a quiet turn goes at once; the rest wait for the turn's end, then leave together.
    expect(corked[0]).toBe(0);
    expect(corked.slice(1).every((n) => n === 1)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(network?.writableCorked).toBe(0);
    await waitFor(() => session.received.filter((m) => m.method === 'notifications/message').length === 20, 10_000, 'the 20 messages');
  });
});
