export interface Corkable {
  cork(): void;
  uncork(): void;
  writableCorked?: number;
}

const corked = new WeakSet<Corkable>();

/**
 * Under load many answers leave in the same turn of the event loop: holding the stream corked until
 * the loop has run this turn's I/O callbacks (setImmediate) sends them in one write instead of a
 * system call each. Alone, a message waits no longer than that turn (no timer is involved).
 */
export function corkForThisTurn(stream: Corkable | undefined | null): void {
  if (!stream || typeof stream.cork !== 'function' || corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  setImmediate(() => {
    corked.delete(stream);
    stream.uncork();
  });
}
