import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness, logText, makeBridge, slowRestarts } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

const server = () => harness!.bridge.state().servers[0]!;

describe('a server that crashes at start says why', () => {
  it('shows the Error line of a Node server that throws, in its status, its error and the log (not "Node.js v20")', async () => {
    harness = makeBridge(
      {
        servers: [
          {
            name: 'node',
            transport: 'stdio',
            command: process.execPath,
            args: ['-e', "throw new Error('FOO_TOKEN is not set: export it first')"],
          },
        ],
      },
      slowRestarts,
    );
    harness.bridge.start();
    await waitFor(() => server().state === 'restarting' && server().lastError !== undefined, 10_000, 'the crash');
    expect(server().lastError).toBe(
      'the program exited before it was ready, with exit code 1: Error: FOO_TOKEN is not set: export it first',
    );
    expect(server().lastErrorCause).toEqual({
      code: 'server.crashed',
      params: { line: 'Error: FOO_TOKEN is not set: export it first', code: 1, when: 'starting' },
    });
    expect(logText(harness.logBook)).toContain(
      '[server:node] the program exited before it was ready, with exit code 1: Error: FOO_TOKEN is not set: export it first; restarting in',
    );
    expect(logText(harness.logBook)).not.toMatch(/last stderr: Node\.js v/);
    // The whole output stays there for whoever wants it.
    expect(server().stderrTail.join('\n')).toMatch(/Error: FOO_TOKEN[\s\S]*Node\.js v\d+/);
  });

  it('finds it after a stack too long for the tail the status keeps', async () => {
    const deep = "Error.stackTraceLimit = 60; function f(n) { if (n === 0) throw new Error('deep failure'); f(n - 1); } f(55)";
    harness = makeBridge({ servers: [{ name: 'deep', transport: 'stdio', command: process.execPath, args: ['-e', deep] }] }, slowRestarts);
    harness.bridge.start();
    await waitFor(() => server().state === 'restarting' && server().lastError !== undefined, 10_000, 'the crash');
    expect(server().stderrTail.join('\n')).not.toContain('Error: deep failure');
    expect(server().lastErrorCause).toEqual({ code: 'server.crashed', params: { line: 'Error: deep failure', code: 1, when: 'starting' } });
  });

  it('says what a running server printed before it crashed, too', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] }, slowRestarts);
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.callTool({
      name: 'stderr',
      arguments: { text: "TypeError: Cannot read properties of undefined (reading 'city')" },
    });
    await harness.bridge.api.callTool({ name: 'crash', arguments: {} });
    await waitFor(() => server().lastError !== undefined, 10_000, 'the crash');
    expect(server().lastError).toBe("the program exited with code 7: TypeError: Cannot read properties of undefined (reading 'city')");
    expect(server().lastErrorCause).toEqual({
      code: 'server.crashed',
      params: { line: "TypeError: Cannot read properties of undefined (reading 'city')", code: 7 },
    });
  });

  it('masks a secret in the cause its words name, as in its words (a folder named after a key)', async () => {
    const key = 'fk-5a4b3c2d1e0f9a8b7c6d';
    const said = "console.error(`Error: ENOENT: no such file or directory, stat '/srv/${process.env.FOLDER_KEY}'`); process.exit(1)";
    harness = makeBridge(
      { servers: [{ name: 'files', transport: 'stdio', command: process.execPath, args: ['-e', said], env: { FOLDER_KEY: key } }] },
      slowRestarts,
    );
    harness.bridge.start();
    await waitFor(() => server().cause !== undefined, 10_000, 'the cause');
    expect(server().cause?.code).toBe('start.folderMissing');
    expect(JSON.stringify(server())).not.toContain(key);
  });
});
