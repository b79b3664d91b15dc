import { useSyncExternalStore } from 'react';

import type { BridgeApi } from '../../shared/bridge-api';
import type { HostInfo } from '../../shared/host';
import { own } from '../../shared/own';
import type { Settings } from '../../shared/settings';
import { type BridgeState, type CallCount, type CallRecord, type CatalogTool, countedCall, type LogEntry } from '../../shared/status';
import type { UpdateStatus } from '../../shared/updates';

export interface StoreData {
  ready: boolean;
  /** The carrier is up (always true under Electron). */
  connected: boolean;
  /** The bridge refused this page's token (a previous run's address): nothing will load until the new one is opened. */
  refused: boolean;
  state: BridgeState;
  settings: Settings | undefined;
  catalog: CatalogTool[];
  logs: LogEntry[];
  history: CallRecord[];
  /** Calls per tool since the bridge started: counts[server][originalTool]. */
  counts: Record<string, Record<string, CallCount>>;
  host: HostInfo | undefined;
  update: UpdateStatus | undefined;
}

const MAX_LOGS = 10_000;

const MAX_HISTORY = 1000;

/**
 * The window's state, fed by BridgeApi events (no polling). Components read it with `useStore`;
 * commands go straight to the api, and settings are re-read after each change.
 */
export class BridgeStore {
  private data: StoreData = {
    ready: false,
    connected: true,
    refused: false,
    state: { running: false, endpoints: [], servers: [], catalog: { toolCount: 0, bytes: 0, pages: 0 } },
    settings: undefined,
    catalog: [],
    logs: [],
    history: [],
    counts: {},
    host: undefined,
    update: undefined,
  };
  private readonly listeners = new Set<() => void>();
  private pendingLogs: LogEntry[] = [];
  private logFlush: ReturnType<typeof setTimeout> | undefined;
  /** Lines up to this sequence number were cleared by the user. */
  private clearedSeq = -1;
  /** Events that arrive while a load waits for its answers. */
  private loading: { state?: BridgeState; catalog?: CatalogTool[]; calls: CallRecord[] } | undefined;

  constructor(readonly api: BridgeApi) {
    api.on('status', (state) => (this.loading ? (this.loading.state = state) : this.set({ state })));
    api.on('catalog', (catalog) => (this.loading ? (this.loading.catalog = catalog) : this.set({ catalog })));
    api.on('update', (update) => this.set({ update }));
    api.on('call', (record) => {
      if (this.loading) this.loading.calls.push(record);
      else this.addCall(record);
    });
    // Log lines can arrive in floods; batch them per frame so the list stays smooth.
    api.on('log', (entry) => {
      this.pendingLogs.push(entry);
      this.logFlush ??= setTimeout(() => this.flushLogs(), 50);
    });
  }

  /**
   * Reads everything once. Events that arrive meanwhile are not lost: the last status and catalog
   * event win over the answers (any later change sends another event), calls the history answer does
   * not hold yet are added and counted, and log lines are merged by their sequence number.
   */
  async load(): Promise<void> {
    const loading: NonNullable<BridgeStore['loading']> = { calls: [] };
    this.loading = loading;
    try {
      const [state, settings, catalog, logs, history, counts, host, update] = await Promise.all([
        this.api.getState(),
        this.api.getSettings(),
        this.api.getCatalog(),
        this.api.getLogs({ limit: MAX_LOGS }),
        this.api.getHistory(),
        this.api.getToolCounts(),
        this.api.getHostInfo(),
        this.api.getUpdateStatus(),
      ]);
      const seenLogs = new Set(logs.map((l) => l.seq));
      const seenCalls = new Set(history.map((h) => h.id));
      this.set({
        ready: true,
        state: loading.state ?? state,
        settings,
        catalog: loading.catalog ?? catalog,
        logs: logs
          .concat(this.data.logs.filter((l) => !seenLogs.has(l.seq)))
          .filter((l) => l.seq > this.clearedSeq)
          .sort((a, b) => a.seq - b.seq)
          .slice(-MAX_LOGS),
        history,
        counts,
        host,
        update,
      });
      for (const record of loading.calls) if (!seenCalls.has(record.id)) this.addCall(record);
    } finally {
      if (this.loading === loading) this.loading = undefined;
    }
  }

  setRefused(): void {
    this.set({ refused: true, connected: true });
  }

  setConnected(connected: boolean): void {
    this.set({ connected });
    if (connected && this.data.ready) void this.load();
  }

  async refreshSettings(): Promise<void> {
    const [settings, host] = await Promise.all([this.api.getSettings(), this.api.getHostInfo()]);
    this.set({ settings, host });
  }

  /** A check's answer arrives before (or without) its event. */
  setUpdate(update: UpdateStatus): void {
    this.set({ update });
  }

  /** Clears the window's view; a later reload does not bring those lines back. */
  clearLogs(): void {
    this.clearedSeq = Math.max(this.clearedSeq, ...this.data.logs.map((l) => l.seq), ...this.pendingLogs.map((l) => l.seq));
    this.pendingLogs = [];
    this.set({ logs: [] });
  }

  get snapshot(): StoreData {
    return this.data;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private addCall(record: CallRecord): void {
    // A held call is not counted: its run (or denial) is, when it comes.
    if (record.outcome === 'held') {
      this.set({ history: withCall(this.data.history, record) });
      return;
    }
    const forServer = own(this.data.counts, record.server) ?? {};
    const counted = countedCall(own(forServer, record.originalTool), record.outcome);
    const counts = { ...this.data.counts, [record.server]: { ...forServer, [record.originalTool]: counted } };
    this.set({ history: withCall(this.data.history, record), counts });
  }

  private flushLogs(): void {
    this.logFlush = undefined;
    const logs = this.data.logs.concat(this.pendingLogs.filter((l) => l.seq > this.clearedSeq));
    this.pendingLogs = [];
    this.set({ logs: logs.length > MAX_LOGS ? logs.slice(logs.length - MAX_LOGS) : logs });
  }

  private set(patch: Partial<StoreData>): void {
    this.data = { ...this.data, ...patch };
    for (const listener of this.listeners) listener();
  }
}

export function useStore<T>(store: BridgeStore, select: (data: StoreData) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.snapshot));
}

/** The history with this call: a held call's outcome takes its row (the same id), any other call is added last. */
function withCall(history: CallRecord[], record: CallRecord): CallRecord[] {
  const at = history.findIndex((h) => h.id === record.id);
  if (at === -1) return [...history, record].slice(-MAX_HISTORY);
  const next = history.slice();
  next[at] = record;
  return next;
}
