import { describe, expect, it } from 'vitest';

import { guardedHttpServer } from '../../../../src/main/core/io/guarded-http-server';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { RefusalLog } from '../../../../src/main/core/logs/refusal-log';

/**
 * The limits both loopback servers (the local MCP server, the web UI) get when none is set. The tests
 * that dribble headers and bodies a byte at a time set a short limit and show it is kept; these are
 * the values a user's app runs with, read from the server as Node applies them.
 */
describe('a guarded HTTP server, unconfigured', () => {
  it('gives a client 10 s for its headers (Node allows a minute) and 60 s for its whole request', () => {
    const server = guardedHttpServer(
      { maxConnections: 8 },
      new RefusalLog(new LogBook().logger('t'), 1000, 'request'),
      'x',
      () => undefined,
    );
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(60_000);
    // Checked every half of it: a dribbling client is dropped within 15 s.
    expect((server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(5000);
  });
});
