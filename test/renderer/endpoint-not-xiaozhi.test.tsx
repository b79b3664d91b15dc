// @vitest-environment jsdom
import net from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { EndpointTestResult } from '../../src/renderer/pages/endpoint-test-result';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();
const listeners: net.Server[] = [];
const sockets = new Set<net.Socket>();
afterEach(async () => {
  // The client may leave its end open after the greeting: close waits for every connection.
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const server of listeners.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A program on a free port that answers every connection with `greeting`, then hangs up; its ws:// address. */
async function answering(greeting: string): Promise<string> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.end(greeting);
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `ws://127.0.0.1:${(server.address() as net.AddressInfo).port}/mcp/?token=abc`;
}

/** Not HTTP at all: an SSH server greets every connection so (RFC 4253, 4.2). */
const notHttp = () => answering('SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n');

const steps = () => [...document.querySelectorAll('.steps li')].map((li) => `${li.className} ${li.textContent}`);

describe('Test connection against a program that is not a xiaozhi endpoint', () => {
  for (const [language, said] of [
    ['zh-CN', '这个地址上的程序不是小智接入点'],
    ['en', 'The program at this address is not a xiaozhi endpoint'],
  ] as const) {
    it(`says so plainly, the parser's detail only in the log (${language})`, async () => {
      const harness = newBridge({});
      const result = await harness.bridge.api.testEndpoint({ url: await notHttp() });
      await renderWithBridge(harness, <EndpointTestResult result={result} />, language);
      // Before: "not reachable" and "Parse Error: Expected HTTP/" for a person to read.
      expect(document.body.textContent).toContain(said);
      expect(document.body.textContent).not.toMatch(/Parse Error|HTTP\/|HPE_/);
      expect(steps()[0]).toMatch(/^step-ok /);
      expect(harness.logBook.entries().some((e) => /Expected HTTP|Parse Error/.test(e.message))).toBe(true);
    });
  }

  it('a web page at the address (200, no upgrade) is not an endpoint either', async () => {
    const url = await answering('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi');
    const harness = newBridge({});
    await renderWithBridge(harness, <EndpointTestResult result={await harness.bridge.api.testEndpoint({ url })} />, 'zh-CN');
    expect(steps()).toEqual(['step-ok ✓可以连通', 'step-bad ✕这个地址上的程序不是小智接入点', 'step-skipped –未检查']);
  });

  it('a 101 without the key a WebSocket answers with (a proxy or program that only says "switching") is not an endpoint either', async () => {
    const url = await answering(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: nope\r\n\r\n',
    );
    const harness = newBridge({});
    await renderWithBridge(harness, <EndpointTestResult result={await harness.bridge.api.testEndpoint({ url })} />, 'en');
    expect(steps()).toEqual([
      'step-ok ✓Reachable',
      'step-bad ✕The program at this address is not a xiaozhi endpoint',
      'step-skipped –Not checked',
    ]);
    expect(document.body.textContent).not.toContain('Sec-WebSocket-Accept');
  });
});
