export interface Corkable {
  cork(): void;
  uncork(): void;
  writableCorked?: number;
}

/** A turn after a busy one starts corked only this soon after it (ms): an idle link writes at once. */
const BUSY_WINDOW_MS = 1;

interface TurnState {
  /** Writes in this turn of the event loop; 0 once the turn has been flushed. */
  writes: number;
  corked: boolean;
  /** When the last flushed turn ended, if it carried more than one write (the stream is busy). */
  busyUntil: number;
}

const turns = new WeakMap<Corkable, TurnState>();

/**
 * Call before each write. On a quiet stream the first write of a turn of the event loop goes out
 * at once (a lone answer waits for nothing); from the second on, the stream is held corked until
 * the loop has run this turn's I/O callbacks (setImmediate), so a burst leaves in one system call.
 * A turn that follows a busy turn is corked from its first write: under load that halves the
 * writes (each one on loopback also pays for waking the reader).
 */
export function corkForThisTurn(stream: Corkable | undefined | null): void {
  if (!stream || typeof stream.cork !== 'function') return;
  let state = turns.get(stream);
  if (state === undefined) {
    state = { writes: 0, corked: false, busyUntil: 0 };
    turns.set(stream, state);
  }
  state.writes++;
  if (state.corked) return;
  if (state.writes === 1) {
    const flush = state;
    setImmediate(() => endTurn(stream, flush));
    if (flush.busyUntil === 0 || performance.now() > flush.busyUntil) return;
  }
  state.corked = true;
  stream.cork();
}

function endTurn(stream: Corkable, state: TurnState): void {
  if (state.corked) stream.uncork();
  state.busyUntil = state.writes > 1 ? performance.now() + BUSY_WINDOW_MS : 0;
  state.writes = 0;
  state.corked = false;
}
