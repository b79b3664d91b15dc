import { type ClientCapabilities, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { canAnswer, type LocalAsker, ServerRequests } from '../../../../../src/main/core/local-server/passthrough/server-requests';
import { hubTaskId, upstreamTask } from '../../../../../src/main/core/local-server/passthrough/tasks';

/** A local caller that answers with its own name, and keeps the notifications it was sent. */
function caller(name: string, capabilities: ClientCapabilities): LocalAsker & { heard: string[] } {
  const heard: string[] = [];
  return {
    heard,
    capabilities: () => capabilities,
    send: (method) => Promise.resolve({ by: name, method }),
    notify: (method) => void heard.push(method),
  };
}

const signal = new AbortController().signal;

describe('which local call a server request goes to', () => {
  it('the one local call in flight to that server takes it; none in flight: undefined (sampling, elicitation)', async () => {
    const requests = new ServerRequests();
    expect(requests.ask('notes', 'sampling/createMessage', {}, signal)).toBeUndefined();
    const leave = requests.enter('notes', caller('A', { sampling: {} }));
    expect(requests.ask('weather', 'sampling/createMessage', {}, signal)).toBeUndefined();
    await expect(requests.ask('notes', 'sampling/createMessage', {}, signal)).resolves.toEqual({
      by: 'A',
      method: 'sampling/createMessage',
    });
    leave();
    expect(requests.ask('notes', 'sampling/createMessage', {}, signal)).toBeUndefined();
  });

  it('with several in flight, the most recent caller that declared the capability takes it', async () => {
    const requests = new ServerRequests();
    requests.enter('notes', caller('A', { sampling: {} }));
    const leaveB = requests.enter('notes', caller('B', { sampling: {} }));
    requests.enter('notes', caller('C', {}));
    await expect(requests.ask('notes', 'sampling/createMessage', {}, signal)).resolves.toMatchObject({ by: 'B' });
    leaveB();
    await expect(requests.ask('notes', 'sampling/createMessage', {}, signal)).resolves.toMatchObject({ by: 'A' });
  });

  it("a request related to a task goes to the caller waiting on that task's result, whoever called last", async () => {
    const requests = new ServerRequests();
    requests.enter('notes', { ...caller('A', { elicitation: {} }), task: 't-1' });
    requests.enter('notes', caller('B', { elicitation: {} }));
    const related = (taskId: string) => ({ message: 'x', _meta: { [RELATED_TASK_META_KEY]: { taskId } } });
    await expect(requests.ask('notes', 'elicitation/create', related('t-1'), signal)).resolves.toMatchObject({ by: 'A' });
    await expect(requests.ask('notes', 'elicitation/create', related('t-9'), signal)).resolves.toMatchObject({ by: 'B' });
  });

  it('a caller without the capability gets the spec answer: method not found, or a declined elicitation', async () => {
    const requests = new ServerRequests();
    requests.enter('notes', caller('A', {}));
    await expect(requests.ask('notes', 'sampling/createMessage', {}, signal)).rejects.toMatchObject({ code: -32601 });
    await expect(requests.ask('notes', 'roots/list', {}, signal)).rejects.toMatchObject({ code: -32601 });
    await expect(requests.ask('notes', 'elicitation/create', { message: 'x' }, signal)).resolves.toEqual({ action: 'decline' });
  });

  it('roots outside a call: the most recent session that declared roots, or an empty list', async () => {
    const requests = new ServerRequests();
    await expect(requests.ask('notes', 'roots/list', {}, signal)).resolves.toEqual({ roots: [] });
    requests.addSession(caller('A', { roots: {} }));
    const leaveB = requests.addSession(caller('B', { roots: {} }));
    requests.addSession(caller('C', {}));
    await expect(requests.ask('notes', 'roots/list', {}, signal)).resolves.toMatchObject({ by: 'B' });
    leaveB();
    await expect(requests.ask('notes', 'roots/list', {}, signal)).resolves.toMatchObject({ by: 'A' });
  });

  it("a session's call in flight to a server is where that server's notices for the session go; none without one", () => {
    const requests = new ServerRequests();
    const a = { ...caller('A', {}), session: 'one' };
    const b = { ...caller('B', {}), session: 'two' };
    expect(requests.callStream('one', 'notes')).toBeUndefined();
    requests.enter('notes', a);
    const leaveB = requests.enter('notes', b);
    requests.callStream('one', 'notes')?.('notifications/message', {});
    expect(requests.callStream('one', 'weather')).toBeUndefined();
    leaveB();
    expect(requests.callStream('two', 'notes')).toBeUndefined();
    expect([a.heard, b.heard]).toEqual([['notifications/message'], []]);
  });

  it('sampling with tools needs the client to take tools in sampling', () => {
    expect(canAnswer({ sampling: {} }, 'sampling/createMessage', { messages: [] })).toBe(true);
    expect(canAnswer({ sampling: {} }, 'sampling/createMessage', { messages: [], tools: [] })).toBe(false);
    expect(canAnswer({ sampling: { tools: {} } }, 'sampling/createMessage', { messages: [], tools: [] })).toBe(true);
  });

  it('elicitation modes: an empty declaration is form mode; url mode needs its own', () => {
    expect(canAnswer({ elicitation: {} }, 'elicitation/create', { message: 'x' })).toBe(true);
    expect(canAnswer({ elicitation: {} }, 'elicitation/create', { mode: 'url', url: 'https://x' })).toBe(false);
    expect(canAnswer({ elicitation: { url: {} } }, 'elicitation/create', { message: 'x' })).toBe(false);
    expect(canAnswer({ elicitation: { url: {} } }, 'elicitation/create', { mode: 'url' })).toBe(true);
  });
});

describe('task ids as local clients see them', () => {
  it('name their server and read back; anything else is not one of ours', () => {
    const id = hubTaskId('my server: 天气', 'abc/123');
    expect(upstreamTask(id)).toEqual({ server: 'my server: 天气', taskId: 'abc/123' });
    expect(upstreamTask('abc')).toBeUndefined();
    expect(upstreamTask('xt1.!!!')).toBeUndefined();
    expect(upstreamTask(`xt1.${Buffer.from('[1,2]').toString('base64url')}`)).toBeUndefined();
  });
});
