import { randomInt } from 'node:crypto';
import type { CallAnswer } from '../tool-set-view';

/** How long a held call waits for its confirmation (about a minute, as a spoken exchange takes). */
export const CONFIRM_WINDOW_MS = 60_000;
/** Held calls kept at once: a model that asks again and again must not grow this without end. */
const MAX_HELD = 32;

/** A call held until the user confirms it. */
export interface HeldCall {
  code: string;
  /** The endpoint session it was asked on: only that session's confirm tool can run it. */
  session: string;
  caller: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  expires: number;
  /** Runs the call as asked (the policy already answered). */
  run(confirmedBy: string): Promise<CallAnswer>;
}

export type Taken = { held: HeldCall } | { refused: 'unknown' | 'expired' | 'otherSession' };

/**
 * The calls held for confirmation, each under a one-time code bound to its session, tool and
 * arguments (the code runs exactly what was asked, once), expiring after `CONFIRM_WINDOW_MS`.
 */
export class Confirmations {
  private readonly held = new Map<string, HeldCall>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  hold(call: Omit<HeldCall, 'code' | 'expires'>): HeldCall {
    this.sweep();
    while (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value as string);
    let code = '';
    // Four digits are easy to say; a code in use is never given twice.
    for (let tries = 0; tries < 100 && (code === '' || this.held.has(code)); tries++) code = String(randomInt(1000, 10_000));
    const entry: HeldCall = { ...call, code, expires: this.now() + CONFIRM_WINDOW_MS };
    this.held.set(code, entry);
    this.changed();
    return entry;
  }

  /** The held call of a code, taken (a code works once); refused when unknown, expired or asked on another session. */
  take(code: string, session: string | undefined): Taken {
    const entry = this.held.get(code.trim());
    if (!entry) return { refused: 'unknown' };
    if (entry.session !== session) return { refused: 'otherSession' };
    this.held.delete(entry.code);
    this.changed();
    if (entry.expires < this.now()) return { refused: 'expired' };
    return { held: entry };
  }

  /** Held calls still waiting (for the window: Allow / Deny). */
  pending(): HeldCall[] {
    this.sweep();
    return [...this.held.values()];
  }

  /** A held call by code, whatever its session (the window's Allow / Deny: the user is the one deciding). */
  takeFromWindow(code: string): HeldCall | undefined {
    const entry = this.held.get(code);
    if (!entry) return undefined;
    this.held.delete(code);
    this.changed();
    return entry.expires < this.now() ? undefined : entry;
  }

  /** Any call is waiting: the confirm tool has something to do. */
  get size(): number {
    return this.held.size;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private sweep(): void {
    const now = this.now();
    let gone = false;
    for (const [code, entry] of this.held) {
      if (entry.expires < now) {
        this.held.delete(code);
        gone = true;
      }
    }
    if (gone) this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
