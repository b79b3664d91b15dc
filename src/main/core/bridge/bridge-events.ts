import type { EventName, EventPayload } from '../../../shared/bridge-api';
import type { BridgeState } from '../../../shared/status';
import type { CallHistory } from '../logs/call-history';
import type { Logger } from '../logs/log-book';

type Listener = (payload: never) => void;

/** The bridge's events and who listens to them; a listener that throws breaks nothing. */
export class BridgeEvents {
  private readonly listeners = new Map<EventName, Set<Listener>>();
  private unsubscribeHistory: (() => void) | undefined;
  private statusQueued = false;

  constructor(
    private readonly history: Pick<CallHistory, 'subscribe'>,
    private readonly log: Logger,
    private readonly state: () => BridgeState,
  ) {}

  /** Status changes come in bursts (a server start touches several); send one event per tick. */
  queueStatus(): void {
    if (this.statusQueued) return;
    this.statusQueued = true;
    setImmediate(() => {
      this.statusQueued = false;
      this.emit('status', this.state());
    });
  }

  /** Returns the unsubscribe function. */
  on<K extends EventName>(event: K, listener: (payload: EventPayload<K>) => void): () => void {
    const set = this.listeners.get(event) ?? new Set<Listener>();
    set.add(listener as Listener);
    this.listeners.set(event, set);
    // Call records are redacted only when someone listens, so listen to the history only then.
    if (event === 'call' && set.size === 1) this.unsubscribeHistory = this.history.subscribe((record) => this.emit('call', record));
    return () => {
      set.delete(listener as Listener);
      if (event === 'call' && set.size === 0) {
        this.unsubscribeHistory?.();
        this.unsubscribeHistory = undefined;
      }
    };
  }

  emit<K extends EventName>(event: K, payload: EventPayload<K>): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (p: EventPayload<K>) => void)(payload);
      } catch (error) {
        // A broken subscriber must not break the engine; do not log a log event's failure (loop).
        if (event !== 'log') this.log.warn(`an event listener failed: ${String(error)}`);
      }
    }
  }
}
