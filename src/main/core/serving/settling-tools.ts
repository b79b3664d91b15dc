import type { CallAnswer, CallContext } from '../hub/tool-hub';

/**
 * Tool lists one consumer may have held at once while servers start. A broker lists once or twice;
 * thousands held for the start grace would be held in memory: past the bound, a list is answered
 * at once with what is there.
 */
export const MAX_LISTS_HELD = 64;

/** What a consumer calls: an endpoint's tools, or a tool set's view. */
export interface CallableTools {
  /** True for a tool there now (a call of any other name waits for servers still starting). */
  has(name: string): boolean;
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer>;
}

/**
 * The one place that waits for servers still starting (or restarting): a `tools/list` and a call of
 * a name not there yet wait until those servers are up or out of their start grace, so a broker
 * that lists once (xiaozhi-esp32-server never re-lists) gets every tool. Whoever serves tools (an
 * endpoint link, a local client's session, the window's "Try it") gets them through one of these.
 */
export class SettlingTools<T extends CallableTools> {
  private held = 0;
  private firstHeld = 0;

  /**
   * `read` gives what is served now (asked at every request, so a switch of mode or set needs no new
   * wrapper); `settled` resolves when every server starting has settled or run out of grace.
   */
  constructor(
    private readonly read: () => T,
    private readonly settled: () => Promise<void>,
  ) {}

  /** What is served right now (for what needs no waiting: its version, its id, a summary). */
  get current(): T {
    return this.read();
  }

  /** First pages of lists being held now: their answers will show any change made meanwhile. */
  get listsWaiting(): number {
    return this.firstHeld;
  }

  has(name: string): boolean {
    return this.read().has(name);
  }

  /** A list (`first`: the first page of one), answered once the servers starting have settled. */
  async list<R>(answer: (tools: T) => R, first = true): Promise<R> {
    if (this.held < MAX_LISTS_HELD) {
      this.held++;
      if (first) this.firstHeld++;
      try {
        await this.settled();
      } finally {
        this.held--;
        if (first) this.firstHeld--;
      }
    }
    return answer(this.read());
  }

  /**
   * A call; one of a name not there yet (a broker calling from a list it kept) waits like a list.
   * Not async: the answer's promise is passed on as it is (an async wrapper cost two more turns of
   * microtasks on every call).
   */
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    if (this.has(name)) return this.read().call(name, args, context);
    return this.settled().then(() => this.read().call(name, args, context));
  }
}
