import { LocalMcpServer, type LocalMcpServerOptions } from '../../src/main/core/local-server/local-mcp-server';
import { LogBook } from '../../src/main/core/logs/log-book';

/**
 * A local MCP server alone, listening on a free loopback port, with no bridge and no session: for
 * what is refused before a request reaches one. Stop it when done.
 */
export async function startBareLocalServer(
  token: string,
  options: Partial<LocalMcpServerOptions> = {},
): Promise<{ server: LocalMcpServer; book: LogBook }> {
  const book = new LogBook();
  const server = new LocalMcpServer({
    host: '127.0.0.1',
    port: 0,
    token,
    viewFor: () => {
      throw new Error('no session in this test');
    },
    callerName: () => 'test',
    log: book.logger('local-server'),
    version: '0.0.0',
    sessionIdleMs: 60_000,
    onSessionsChanged: () => undefined,
    ...options,
  });
  await server.start();
  return { server, book };
}
