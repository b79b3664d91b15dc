import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { CallAnswer } from '../../../../src/main/core/hub/tool-hub';
import { StartGrace } from '../../../../src/main/core/servers/start-grace';
import { type CallableTools, MAX_LISTS_HELD, SettlingTools } from '../../../../src/main/core/serving/settling-tools';
import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

/** A server start the test finishes when it wants, tracked by a real start grace. */
function startingServer(graceMs = 60_000) {
  const grace = new StartGrace(() => graceMs);
  let ready!: () => void;
  grace.track('slow', new Promise<void>((resolve) => (ready = resolve)));
  return { grace, ready: () => ready() };
}

/** Tools whose names the test sets, answering every call with the name called. */
function toolsNamed(...names: string[]): CallableTools & { names: Set<string> } {
  const known = new Set(names);
  return {
    names: known,
    has: (name) => known.has(name),
    call: async (name) => ({ result: { content: [{ type: 'text', text: `called ${name}` }] } }),
  };
}

const text = (answer: CallAnswer) => (answer.result.content[0] as { text: string }).text;

describe('waiting for servers still starting, in one place', () => {
  it(`holds lists until the start settles, at most ${MAX_LISTS_HELD} at once; the next ones are answered at once`, async () => {
    const { grace, ready } = startingServer();
    const tools = toolsNamed('echo');
    const settling = new SettlingTools(
      () => tools,
      () => grace.settled(),
    );
    const answered: number[] = [];
    const held = Array.from({ length: MAX_LISTS_HELD }, (_, i) => settling.list(() => answered.push(i), i % 2 === 0));
    expect(settling.listsWaiting).toBe(MAX_LISTS_HELD / 2);
    // Past the bound: answered with what is there, without waiting.
    expect(await settling.list(() => 'at once')).toBe('at once');
    expect(answered).toEqual([]);
    ready();
    await Promise.all(held);
    expect(answered).toHaveLength(MAX_LISTS_HELD);
    expect(settling.listsWaiting).toBe(0);
  });

  it('lets a call of a tool that is there through at once, and holds one of a name not there yet until the start settles', async () => {
    const { grace, ready } = startingServer();
    const tools = toolsNamed('echo');
    const settling = new SettlingTools(
      () => tools,
      () => grace.settled(),
    );
    expect(text(await settling.call('echo', {}, { caller: 't' }))).toBe('called echo');
    let late: string | undefined;
    const pending = settling.call('later', {}, { caller: 't' }).then((answer) => (late = text(answer)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(late).toBeUndefined();
    tools.names.add('later');
    ready();
    await pending;
    expect(late).toBe('called later');
  });
});

describe("the window's Try it and a local client, while a server starts", () => {
  let harness: Harness | undefined;
  const clients: Client[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    await harness?.bridge.stop();
    harness = undefined;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function slowBridge() {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-settle-'));
    dirs.push(stateDir);
    harness = makeBridge(
      {
        servers: [fixtureServer('slow', { FIXTURE_START_DELAY_MS: '1500' })],
        localServer: { enabled: true, port: 0, token: 'settle-test-token-0123456789abcdef' },
      },
      undefined,
      { stateDir },
    );
    harness.bridge.start();
    return harness.bridge;
  }

  it('Try it of a tool whose server is still starting waits for it instead of answering "Unknown tool"', async () => {
    const bridge = slowBridge();
    expect(bridge.state().servers[0]?.state).toBe('starting');
    const answer = await bridge.api.callTool({ name: 'echo', arguments: { text: 'early' } });
    expect(answer).toMatchObject({ text: 'slow: early', isError: false });
    expect(answer.error).toBeUndefined();
  });

  it("a local client's call of a tool whose server is still starting waits for it", async () => {
    const bridge = slowBridge();
    await waitFor(() => bridge.state().localServer?.state === 'listening', 10_000, 'the local server to listen');
    expect(bridge.state().servers[0]?.state).toBe('starting');
    const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: {} });
    clients.push(client);
    const headers = { Authorization: 'Bearer settle-test-token-0123456789abcdef' };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(bridge.state().localServer?.url as string), { requestInit: { headers } }),
    );
    const result = await client.callTool({ name: 'echo', arguments: { text: 'early' } });
    expect(result.content).toEqual([{ type: 'text', text: 'slow: early' }]);
  });
});
