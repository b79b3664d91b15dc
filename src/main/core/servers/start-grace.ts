/**
 * Servers that are still starting, each with the moment past which nobody should wait for it.
 * A `tools/list` that arrives while servers start waits here, so a broker that lists only once
 * (xiaozhi-esp32-server never reacts to list_changed) still gets every tool; a server that hangs
 * holds nobody past its grace, and one that fails releases at once.
 */
export class StartGrace {
  private readonly pending = new Map<string, { done: Promise<void>; deadline: number }>();

  constructor(private readonly graceMs: () => number) {}

  /** `started` settles when the server is ready or its first attempt failed. */
  track(name: string, started: Promise<unknown>): void {
    const entry = {
      deadline: Date.now() + this.graceMs(),
      done: started.then(
        () => undefined,
        () => undefined,
      ),
    };
    this.pending.set(name, entry);
    void entry.done.then(() => {
      if (this.pending.get(name) === entry) this.pending.delete(name);
    });
  }

  forget(name: string): void {
    this.pending.delete(name);
  }

  /** Every start tracked so far, settled or not. */
  all(): Promise<void> {
    return Promise.all([...this.pending.values()].map((p) => p.done)).then(() => undefined);
  }

  /** Resolves when every pending start has settled or its grace has run out, whichever is first. */
  async settled(): Promise<void> {
    const now = Date.now();
    const waiting = [...this.pending.values()].filter((p) => p.deadline > now);
    if (waiting.length === 0) return;
    const wait = Math.max(...waiting.map((p) => p.deadline)) - now;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(waiting.map((p) => p.done)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, wait);
      }),
    ]);
    clearTimeout(timer);
  }
}
