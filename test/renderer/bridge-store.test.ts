import { describe, expect, it } from 'vitest';

import { BridgeStore } from '../../src/renderer/store/bridge-store';
import type { BridgeApi, EventName, EventPayload } from '../../src/shared/bridge-api';
import type { BridgeState, CallRecord, LogEntry } from '../../src/shared/status';
import { waitFor } from '../helpers/wait';

/** An api whose answers to `load()` wait until the test releases them, with events pushed in between. */
function slowApi() {
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const state = (running: boolean): BridgeState => ({ running, endpoints: [], servers: [], catalog: { toolCount: 0, bytes: 0, pages: 1 } });
  const log = (seq: number): LogEntry => ({ seq, time: seq, level: 'info', source: 'app', message: `line ${seq}` });
  const call = (id: number): CallRecord => ({
    id,
    time: id,
    caller: 'x',
    tool: 't',
    originalTool: 't',
    server: 's',
    arguments: '{}',
    durationMs: 1,
    outcome: 'ok',
    result: '',
  });
  // What the snapshot says when it is taken (before the events below happened).
  const snapshot = { state: state(false), logs: [log(1)], history: [call(1)], counts: { s: { t: { ok: 1, failed: 0, errorText: 0 } } } };
  const answer = async <T>(value: T): Promise<T> => {
    await gate;
    return value;
  };
  const api = {
    getState: () => answer(snapshot.state),
    getSettings: () => answer(undefined),
    getCatalog: () => answer([]),
    getLogs: () => answer(snapshot.logs),
    getHistory: () => answer(snapshot.history),
    getToolCounts: () => answer(snapshot.counts),
    getHostInfo: () => answer({ carrier: 'web', platform: 'linux', version: '0', secretStorage: 'config-file', launchAtLogin: null }),
    getUpdateStatus: () => answer({ state: 'unsupported', currentVersion: '0' }),
    on: (event: EventName, listener: (p: unknown) => void) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  } as unknown as BridgeApi;
  const emit = <K extends EventName>(event: K, payload: EventPayload<K>) => listeners.get(event)?.forEach((l) => l(payload));
  return { api, emit, release, state, log, call };
}

describe('the window store', () => {
  it('keeps events that arrive while the first load() is still waiting for its answers', async () => {
    const fake = slowApi();
    const store = new BridgeStore(fake.api);
    const loading = store.load();
    // The bridge started and printed a line, and xiaozhi called a tool, before the snapshot came back.
    fake.emit('status', fake.state(true));
    fake.emit('log', fake.log(2));
    fake.emit('call', fake.call(2));
    fake.release();
    await loading;
    await waitFor(() => store.snapshot.logs.length >= 2, 2000, 'the early log line');
    expect(store.snapshot.state.running).toBe(true);
    expect(store.snapshot.logs.map((l) => l.seq)).toEqual([1, 2]);
    expect(store.snapshot.history.map((h) => h.id)).toEqual([1, 2]);
    expect(store.snapshot.counts).toEqual({ s: { t: { ok: 2, failed: 0, errorText: 0 } } });
  });

  it('a held call and its outcome are one row: the outcome replaces the row of the same id, counted once', async () => {
    const fake = slowApi();
    const store = new BridgeStore(fake.api);
    const loading = store.load();
    fake.release();
    await loading;
    fake.emit('call', { ...fake.call(2), outcome: 'held', confirmation: { state: 'waiting' } });
    fake.emit('call', fake.call(3));
    fake.emit('call', { ...fake.call(2), outcome: 'ok', result: 'done', confirmation: { state: 'allowed', in: 'webUi' } });
    expect(store.snapshot.history.map((h) => [h.id, h.outcome])).toEqual([
      [1, 'ok'],
      [2, 'ok'],
      [3, 'ok'],
    ]);
    expect(store.snapshot.history[1]?.confirmation).toEqual({ state: 'allowed', in: 'webUi' });
    expect(store.snapshot.counts).toEqual({ s: { t: { ok: 3, failed: 0, errorText: 0 } } });
  });
});
