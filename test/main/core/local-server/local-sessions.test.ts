import { describe, expect, it } from 'vitest';

import { ToolHub } from '../../../../src/main/core/hub/tool-hub';
import { LocalSessions, requestIds } from '../../../../src/main/core/local-server/local-sessions';
import { CallHistory } from '../../../../src/main/core/logs/call-history';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { SettlingTools } from '../../../../src/main/core/serving/settling-tools';
import { SettingsSchema } from '../../../../src/shared/settings';

/** The sessions alone, over an empty hub: no HTTP front, no bridge. */
function sessionsOverEmptyHub() {
  const settings = SettingsSchema.parse({});
  const book = new LogBook();
  const hub = new ToolHub(
    () => [],
    { naming: settings.naming, toolSets: settings.toolSets, maxMessageBytes: settings.limits.maxMessageBytes },
    new CallHistory(10),
    book.logger('hub'),
  );
  const view = new SettlingTools(
    () => hub.forSet(undefined),
    () => Promise.resolve(),
  );
  let changes = 0;
  const sessions = new LocalSessions({
    viewFor: () => view,
    callerName: (client) => client,
    log: book.logger('local-server'),
    version: '0.0.0',
    sessionIdleMs: 60_000,
    onSessionsChanged: () => changes++,
  });
  return { sessions, changes: () => changes };
}

describe('the local server sessions, apart from its HTTP front', () => {
  it('open a session per client, list it, and end every one when closed', async () => {
    const { sessions, changes } = sessionsOverEmptyHub();
    const session = await sessions.open('cursor', {});
    expect(sessions.get(session.id)).toBe(session);
    expect(sessions.list()).toEqual([expect.objectContaining({ client: 'cursor', id: session.id.slice(0, 8), calls: 0 })]);
    await sessions.closeAll('the test ended');
    expect(sessions.size).toBe(0);
    expect(changes()).toBeGreaterThan(0);
  });

  it('tell the ids of the requests a body holds, one or a batch, and nothing of notifications or answers', () => {
    expect(requestIds({ jsonrpc: '2.0', id: 7, method: 'tools/call' })).toEqual([7]);
    expect(
      requestIds([
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 3, result: {} },
        { jsonrpc: '2.0', id: 1.5, method: 'x' },
        null,
        'text',
      ]),
    ).toEqual(['a']);
    expect(requestIds(undefined)).toEqual([]);
  });
});
