import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';

import { Bridge } from '../../src/main/core/bridge/bridge';
import { MemorySettingsStore } from '../../src/main/core/config/settings-store';
import { clientToken } from '../../src/main/core/local-server/client-tokens';
import { LogBook } from '../../src/main/core/logs/log-book';
import { type SettingsInput, SettingsSchema } from '../../src/shared/settings';
import { fastSupervision, testConnection } from './bridge-harness';
import { closedAfterEach } from './closed-after-each';
import { tempDirs } from './temp-dirs';
import { waitFor } from './wait';

export interface LocalHub {
  bridge: Bridge;
  logBook: LogBook;
  /** The local server's /mcp. */
  url: string;
}

export interface HubClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/**
 * A bridge whose local MCP server listens on a free port, and SDK clients of it over streamable
 * HTTP, for the passthrough tests; both are closed after each test:
 * `const hub = localHubs(TOKEN, 'xt-pass-')`, then `await hub.start({...})` and `await hub.connect(url, 'cursor')`.
 */
export function localHubs(token: string, prefix: string) {
  const tempDir = tempDirs(prefix);
  let bridge: Bridge | undefined;
  afterEach(async () => {
    await bridge?.stop();
    bridge = undefined;
  });
  // Registered after the bridge's hook, so run before it: the clients are closed while the bridge still answers.
  const { clients } = closedAfterEach();
  return {
    /** Closes this client after the test too (a client of something else, such as a server asked directly). */
    track<T extends Client>(client: T): T {
      clients.push(client);
      return client;
    },
    /** Starts a bridge on these settings (the local server on with `token`, port 0) once its servers settled and it listens. */
    async start(input: SettingsInput, options: { listChangedDebounceMs?: number } = {}): Promise<LocalHub> {
      const localServer = { enabled: true, port: 0, token, ...(input.localServer as object | undefined) };
      const settings = SettingsSchema.parse({ connection: testConnection, ...input, localServer });
      const logBook = new LogBook();
      const started = new Bridge({
        store: new MemorySettingsStore(settings),
        logBook,
        supervision: fastSupervision,
        ...options,
        stateDir: tempDir(),
      });
      bridge = started;
      started.start();
      await started.whenServersSettled();
      await waitFor(() => started.state().localServer?.state === 'listening', 10_000, 'the local server to listen');
      return { bridge: started, logBook, url: started.state().localServer?.url as string };
    },
    /** A session at /mcp/<client> (or /mcp for ''), with that client's own token; `before` sets its handlers before it connects. */
    async connect(
      url: string,
      client = '',
      options: { name?: string; capabilities?: ClientCapabilities; before?: (client: Client) => void } = {},
    ): Promise<HubClient> {
      const sdk = new Client(
        { name: options.name ?? `test-${client || 'all'}`, version: '1.0.0' },
        { capabilities: options.capabilities ?? {} },
      );
      clients.push(sdk);
      options.before?.(sdk);
      const transport = new StreamableHTTPClientTransport(new URL(client ? `${url}/${client}` : url), {
        requestInit: { headers: { Authorization: `Bearer ${clientToken(token, client)}` } },
      });
      await sdk.connect(transport);
      return { client: sdk, transport };
    },
  };
}
