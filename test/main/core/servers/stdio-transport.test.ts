import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import { ProblemError } from '../../../../src/main/core/problems/server-problems';
import { ReadBufferOverflow } from '../../../../src/main/core/servers/lean-read-buffer';
import { StdioTransport, type StdioTransportOptions } from '../../../../src/main/core/servers/stdio-transport';
import type { Problem } from '../../../../src/shared/problem';
import { waitFor } from '../../../helpers/wait';

// The stdio transport against real child processes (node -e programs): what it reads, what it
// refuses to queue, how it ends.

const open: StdioTransport[] = [];
afterEach(async () => {
  for (const transport of open.splice(0)) await transport.close();
});

function started(script: string, options: Partial<StdioTransportOptions> = {}) {
  const seen = { messages: [] as JSONRPCMessage[], errors: [] as Error[], closed: false };
  const transport = new StdioTransport(
    { command: process.execPath, args: ['-e', script], env: process.env },
    { maxLineBytes: 1024 * 1024, maxUnreadBytes: 16 * 1024 * 1024, ...options },
  );
  transport.onmessage = (message) => seen.messages.push(message);
  transport.onerror = (error) => seen.errors.push(error);
  transport.onclose = () => (seen.closed = true);
  open.push(transport);
  return { transport, seen };
}

/** Echoes every line it reads back, as it comes. */
const ECHO = "process.stdin.on('data', (d) => process.stdout.write(d));";

describe('the stdio transport', () => {
  it('sends each message as one line and reads the answers, many in one turn included', async () => {
    const { transport, seen } = started(ECHO);
    await transport.start();
    for (let id = 1; id <= 50; id++) void transport.send({ jsonrpc: '2.0', id, method: 'ping' });
    await waitFor(() => seen.messages.length === 50, 10_000, 'the 50 echoes');
    expect(seen.messages.map((m) => (m as { id: number }).id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(seen.errors).toEqual([]);
  });

  it('says a line that is not JSON-RPC and reads the next one', async () => {
    const { transport, seen } = started(
      "process.stdout.write('hello, I am a log line\\n' + JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} }) + '\\n');",
    );
    await transport.start();
    await waitFor(() => seen.messages.length === 1, 10_000, 'the message after the bad line');
    expect(seen.messages[0]).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    expect(seen.errors).toHaveLength(1);
  });

  it('ends the connection on a line past its bound, saying so as a problem', async () => {
    const { transport, seen } = started("process.stdout.write('x'.repeat(300000)); setInterval(() => {}, 1000);", {
      maxLineBytes: 100_000,
    });
    await transport.start();
    await waitFor(() => seen.closed, 15_000, 'the connection closed');
    expect(seen.errors[0]).toBeInstanceOf(ReadBufferOverflow);
  });

  it('refuses to queue without end for a program that stopped reading, and says so', async () => {
    const notReading: Problem[] = [];
    // Never reads its stdin.
    const { transport } = started('setInterval(() => {}, 1000);', { maxUnreadBytes: 64 * 1024, onNotReading: (p) => notReading.push(p) });
    await transport.start();
    const big = { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'y'.repeat(32 * 1024) } } as JSONRPCMessage;
    let refused: unknown;
    for (let i = 0; i < 200 && refused === undefined; i++) {
      await transport.send(big).catch((error: unknown) => (refused = error));
      // Each turn's writes leave corked until the turn ends: let them reach the pipe.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).problem.code).toBe('server.notReading');
    expect(notReading.map((p) => p.code)).toEqual(['server.notReading']);
  });

  it('tells how the program ended, and close() ends a program that exits when its stdin closes', async () => {
    const exits: unknown[] = [];
    const { transport, seen } = started("process.stdin.on('end', () => process.exit(5)); process.stdin.resume();", {
      onExit: (exit) => exits.push(exit),
    });
    await transport.start();
    expect(transport.pid).toBeGreaterThan(0);
    await transport.close();
    await waitFor(() => seen.closed, 10_000, 'onclose');
    expect(exits).toEqual([{ code: 5, signal: null }]);
    expect(transport.process).toBeUndefined();
  });

  it('rejects start() for a program that is not there', async () => {
    const transport = new StdioTransport(
      { command: '/nonexistent/xiaozhi-no-such-program', args: [], env: process.env },
      { maxLineBytes: 1024, maxUnreadBytes: 1024 },
    );
    transport.onerror = () => undefined;
    await expect(transport.start()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
