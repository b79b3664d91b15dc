import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { ProcessExit } from '../../../../src/main/core/problems/server-problems';
import { LeanReadBuffer, ReadBufferOverflow } from '../../../../src/main/core/servers/lean-read-buffer';
import { makeTransport, stdioPid, stdioProcess, type TransportContext } from '../../../../src/main/core/servers/server-transport';
import type { Problem } from '../../../../src/shared/problem';
import { FIXTURE } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

const open: Transport[] = [];
afterEach(async () => {
  for (const transport of open.splice(0)) await transport.close();
});

function context(seen: { exits: ProcessExit[]; stderr: string[]; tooBig: Problem[] }): TransportContext {
  return {
    baseEnv: process.env,
    modelscopeApiKey: undefined,
    mirrorEnv: {},
    maxRemoteMessageBytes: 1024,
    onStderrLine: (line) => seen.stderr.push(line),
    onSpawned: () => undefined,
    onExit: (exit) => seen.exits.push(exit),
    onHeldOutput: () => undefined,
    onTooBig: (problem) => seen.tooBig.push(problem),
  };
}

const stdio = (args: string[]) => ({ name: 'x', transport: 'stdio' as const, command: process.execPath, args, env: {}, enabled: true });

describe("a stdio server's transport (our own, behind the SDK's Transport interface)", () => {
  it('gives its child process (pid, a stdin that corks) while it runs, and none once it has closed', async () => {
    const seen = { exits: [], stderr: [], tooBig: [] };
    const transport = makeTransport(stdio([FIXTURE]), context(seen));
    open.push(transport);
    await transport.start();
    const child = stdioProcess(transport);
    expect(child?.pid).toBeGreaterThan(0);
    expect(child?.pid).toBe(stdioPid(transport));
    expect(typeof child?.stdin?.cork).toBe('function');
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.close();
    await waitFor(() => closed, 10_000, 'onclose');
    expect(stdioProcess(transport)).toBeUndefined();
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toThrow('Not connected');
  });

  it('reports how the program ended (exit code or signal) and what it said on stderr', async () => {
    const seen: { exits: ProcessExit[]; stderr: string[]; tooBig: Problem[] } = { exits: [], stderr: [], tooBig: [] };
    const transport = makeTransport(stdio(['-e', "process.stderr.write('Error: bye\\n'); process.exit(3)"]), context(seen));
    open.push(transport);
    await transport.start();
    await waitFor(() => seen.exits.length === 1, 10_000, 'the exit');
    expect(seen.exits).toEqual([{ code: 3, signal: null }]);
    await waitFor(() => seen.stderr.includes('Error: bye'), 10_000, 'its stderr line');
  });
});

describe("the lean read buffer (the SDK's stdio buffer, replaced)", () => {
  const line = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n`;

  it('reads many messages of one chunk, and one message cut into many chunks, CRLF included', () => {
    const buffer = new LeanReadBuffer(1024 * 1024);
    buffer.append(Buffer.from(line(1) + line(2) + line(3).slice(0, 5)));
    expect([buffer.readMessage(), buffer.readMessage(), buffer.readMessage()]).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
      null,
    ]);
    const rest = Buffer.from(line(3).slice(5).replace('\n', '\r\n'));
    for (let i = 0; i < rest.length; i += 3) {
      buffer.append(rest.subarray(i, i + 3));
      const message = buffer.readMessage();
      if (message) expect(message).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    }
    expect(buffer.readMessage()).toBeNull();
    buffer.append(Buffer.from(line(4)));
    expect(buffer.readMessage()).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
  });

  it('says an overflow as a problem (a value, not words to match), counting every held chunk of the line', () => {
    const buffer = new LeanReadBuffer(3 * 1024 * 1024);
    const chunk = Buffer.alloc(1024 * 1024, 120);
    buffer.append(chunk);
    expect(buffer.readMessage()).toBeNull();
    buffer.append(chunk);
    expect(buffer.readMessage()).toBeNull();
    buffer.append(chunk);
    let thrown: unknown;
    try {
      buffer.append(Buffer.from('x'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ReadBufferOverflow);
    expect((thrown as ReadBufferOverflow).problem).toEqual({ code: 'server.outputOverflow', params: { megabytes: 3 } });
    // It starts over empty.
    buffer.append(Buffer.from(line(5)));
    expect(buffer.readMessage()).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
  });
});
