/**
 * What a call needs of a cancellation signal. An `AbortSignal` is one; `CallAbort` is a lighter one
 * for the relay's hot path (an AbortController and its EventTarget cost more per call than the
 * rest of the bridge's JavaScript for a call together).
 */
export interface CallSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class CallAbort implements CallSignal {
  aborted = false;
  reason: unknown = undefined;
  /**
   * The one listener nearly every call has (its server's relay): held alone, as an array of one
   * (a 17-slot backing store at the first push, and splice's array of what it removed) cost more
   * than the rest of the signal. Further listeners go to `more`.
   */
  private listener: (() => void) | undefined;
  private more: (() => void)[] | undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === undefined && this.more === undefined) this.listener = listener;
    else (this.more ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) {
      this.listener = undefined;
      return;
    }
    const at = this.more?.indexOf(listener) ?? -1;
    if (at >= 0) this.more?.splice(at, 1);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const { listener, more } = this;
    this.listener = undefined;
    this.more = undefined;
    listener?.();
    if (more) for (const each of more) each();
  }
}

/** A real AbortSignal for APIs that need one (the SDK's request options). */
export function toAbortSignal(signal: CallSignal): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}
