export interface Corkable {
  cork(): void;
  uncork(): void;
  writableCorked?: number;
}

/** Streams written to in this turn of the event loop: 'sent' after one write, 'corked' after more. */
const turn = new WeakMap<Corkable, 'sent' | 'corked'>();

/**
 * Call before each write. The first write of a turn of the event loop goes out at once (a lone
 * answer waits for nothing); from the second on, the stream is held corked until the loop has run
 * this turn's I/O callbacks (setImmediate), so a burst of answers leaves in one system call
 * instead of one each.
 */
export function corkForThisTurn(stream: Corkable | undefined | null): void {
  if (!stream || typeof stream.cork !== 'function') return;
  const state = turn.get(stream);
  if (state === 'corked') return;
  if (state === 'sent') {
    turn.set(stream, 'corked');
    stream.cork();
    return;
  }
  turn.set(stream, 'sent');
  setImmediate(() => {
    if (turn.get(stream) === 'corked') stream.uncork();
    turn.delete(stream);
  });
}
