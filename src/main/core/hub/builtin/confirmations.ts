import type { Progress } from '@modelcontextprotocol/sdk/types.js';

import type { Language } from '../../../../shared/i18n/translate';
import type { ConfirmedIn } from '../../../../shared/status';
import type { CallSignal } from '../../io/call-signal';
import type { CallAnswer } from '../tool-set-view';
import { pinMatches, WrongPins } from './confirmation-pin';

/** How long a held call waits for its confirmation (about a minute, as a spoken exchange takes). */
export const CONFIRM_WINDOW_MS = 60_000;
/** Held calls kept at once: a model that asks again and again must not grow this without end. */
const MAX_HELD = 32;
/** Held calls of one session: a model that loops on a risky tool expires its own oldest, not other sessions' calls. */
export const MAX_HELD_PER_SESSION = 8;
/** Sessions whose last decision is remembered, so a late confirm_action hears what became of its call. */
const MAX_DECIDED = 256;

/** How a held call may run: in the background, stoppable, as a task whose id the history records. */
export interface HeldRunOptions {
  signal?: CallSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  background?: { id?: string } | undefined;
}

/**
 * Who may confirm a held call: the person by voice with their PIN (or in the window), or only the
 * window and the web UI ("confirm in the window only": nothing a model can call runs it).
 */
export type HeldVia = 'pin' | 'window';

/** A call held until the user confirms it. */
export interface HeldCall {
  /** The window's handle. */
  key: number;
  /** The voice session it was asked in (a device's conversation): only there can the PIN confirm it. */
  session: string;
  via: HeldVia;
  caller: string;
  /** Whose task it becomes when it runs in the background: the endpoint's id. */
  owner: string;
  server: string;
  tool: string;
  /** The tool's title (or name), and the action as the user hears it (title and main arguments). */
  title: string;
  action: string;
  /** The action without its arguments, in each window language: what the window's panel leads with. */
  said?: Record<Language, string>;
  args: Record<string, unknown>;
  askedAt: number;
  expires: number;
  /** Runs the call as asked (the policy already answered). */
  run(confirmedBy: ConfirmedIn, options?: HeldRunOptions): Promise<CallAnswer>;
  /** Told when it ends without running: denied (where: the window, the web UI), expired, or withdrawn (its tool set to "never"); the history records it. */
  ended(how: 'denied' | 'expired' | 'withdrawn', by?: ConfirmedIn): void;
  /** Whether the tool may still run by voice (the policy read again: absent, yes). */
  stillAllowed?: () => boolean;
  /** Whether the tool is now "only in the window" (the policy read again: absent, no). */
  windowOnly?: () => boolean;
}

/** What became of a session's last held call. */
type Decision =
  | { how: 'denied' | 'expired' | 'withdrawn'; action: string }
  | { how: 'allowed'; owner: string; task?: string }
  /** Confirmed by voice: `task` gets the task id if the confirm call goes on in the background. */
  | { how: 'confirmed'; owner: string; action: string; task: { id?: string } };

/** What a confirmation by voice came to, when it ran nothing. */
export type Unconfirmed =
  /** Nothing waits in this session, and nothing was decided lately. */
  | { refused: 'nothing' | 'expired' }
  /** What waits here may only be allowed in the window. */
  | { refused: 'windowOnly'; action: string }
  /** Not the PIN: the action still waits. */
  | { refused: 'wrong'; action: string }
  /** This wrong PIN was one too many: what the session held is cancelled. */
  | { refused: 'tooManyWrong' }
  /** Too many wrong PINs lately: voice cannot confirm for a while (the window can). */
  | { refused: 'paused'; minutes: number }
  | { denied: string }
  | { withdrawn: string }
  | { confirmed: { action: string; owner: string; task?: string } }
  | { allowed: { owner: string; task?: string } };

export type Taken = { held: HeldCall } | Unconfirmed;

/** A PIN check's verdict for a session. */
export type PinVerdict = 'right' | 'wrong' | 'tooManyWrong' | 'paused';

/**
 * The calls held for confirmation, each bound to the voice session that asked, expiring after a
 * minute. The person confirms by saying their PIN (never in any answer the model reads, so a model
 * cannot confirm by itself), or in the window (Allow, Deny), which alone can allow a call held
 * "in the window only". What became of a session's last call is remembered for a while, so a
 * confirmation after the window answered is told so rather than "nothing waits".
 */
export class Confirmations {
  private readonly held = new Map<number, HeldCall>();
  private readonly decided = new Map<string, Decision>();
  private readonly listeners = new Set<() => void>();
  private nextKey = 1;
  private timer: NodeJS.Timeout | undefined;
  private readonly wrongPins: WrongPins;
  /** Told once per lockout (the bridge logs it). */
  onTooManyWrong: (session: string, cancelled: number) => void = () => {};

  constructor(
    /** The person's PIN (made, if there was none, by whoever answers). */
    private readonly pin: () => string,
    private readonly windowMs: number = CONFIRM_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.wrongPins = new WrongPins(now);
  }

  hold(call: Omit<HeldCall, 'key' | 'askedAt' | 'expires'>): HeldCall {
    this.sweep();
    const mine = [...this.held.values()].filter((entry) => entry.session === call.session);
    while (mine.length >= MAX_HELD_PER_SESSION) this.expire(mine.shift() as HeldCall);
    while (this.held.size >= MAX_HELD) this.expire(this.held.values().next().value as HeldCall);
    const askedAt = this.now();
    const entry: HeldCall = { ...call, key: this.nextKey++, askedAt, expires: askedAt + this.windowMs };
    this.held.set(entry.key, entry);
    this.changed();
    return entry;
  }

  /** The newest call of this session the PIN may confirm, if one waits. */
  waiting(session: string): HeldCall | undefined {
    this.sweep();
    let newest: HeldCall | undefined;
    for (const entry of this.held.values()) if (entry.session === session && entry.via === 'pin') newest = entry;
    return newest;
  }

  /**
   * What the session hears when no call waits for its PIN: a call waiting for the window only, or
   * what became of its last one.
   */
  nothingWaiting(session: string): Unconfirmed {
    for (const entry of this.held.values())
      if (entry.session === session && entry.via === 'window') return { refused: 'windowOnly', action: entry.action };
    // After a lockout: not "expired, ask again" (the next PIN would be refused too), but how long voice waits.
    if (this.wrongPins.locked(session)) return { refused: 'paused', minutes: this.wrongPins.minutesLeft(session) };
    return this.decision(session);
  }

  /**
   * What was said, checked against the PIN for this session. Too many wrong PINs lately (in the
   * session or overall) pause voice confirmation; the one that reaches the bound cancels what the
   * session holds. Only called when something waits, so a guess with nothing to confirm tells nothing.
   */
  checkPin(session: string, said: unknown): PinVerdict {
    if (this.wrongPins.locked(session)) return 'paused';
    if (pinMatches(this.pin(), said)) return 'right';
    if (!this.wrongPins.add(session)) return 'wrong';
    const mine = [...this.held.values()].filter((entry) => entry.session === session);
    for (const entry of mine) this.expire(entry);
    this.onTooManyWrong(session, mine.length);
    return 'tooManyWrong';
  }

  /** Minutes until this session may confirm by voice again. */
  pausedMinutes(session: string): number {
    return this.wrongPins.minutesLeft(session);
  }

  /** The call the PIN confirmed, taken (it runs once); `task` gets its task id if the confirmation goes on as one. */
  take(entry: HeldCall, task: { id?: string } = {}): HeldCall | undefined {
    if (this.held.get(entry.key) !== entry) return undefined;
    this.held.delete(entry.key);
    this.remember(entry.session, { how: 'confirmed', owner: entry.owner, action: entry.action, task });
    this.changed();
    return entry;
  }

  /** Held calls still waiting, oldest first (for the window: Allow / Deny). */
  pending(): HeldCall[] {
    this.sweep();
    return [...this.held.values()];
  }

  /** The window's Allow: the held call by its key, taken, whatever its session (the user is the one deciding). */
  allowFromWindow(key: number, task: (held: HeldCall) => string | undefined): HeldCall | undefined {
    const entry = this.byKey(key);
    if (!entry) return undefined;
    this.held.delete(entry.key);
    const id = task(entry);
    this.remember(entry.session, { how: 'allowed', owner: entry.owner, ...(id !== undefined ? { task: id } : {}) });
    this.changed();
    return entry;
  }

  /** The window's Deny; false when it was no longer waiting. */
  denyFromWindow(key: number, by: ConfirmedIn): boolean {
    const entry = this.byKey(key);
    if (!entry) return false;
    this.held.delete(entry.key);
    this.remember(entry.session, { how: 'denied', action: entry.action });
    entry.ended('denied', by);
    this.changed();
    return true;
  }

  /**
   * A connection closed: the held calls of its voice sessions end (only they could confirm them
   * by voice, and after a reconnect the model asks again; kept, the window would list one action
   * twice, and Allow both). Wrong PINs stay counted: a new conversation starts with its own count,
   * and the overall one stays.
   */
  dropSession(belongs: (session: string) => boolean): void {
    for (const entry of [...this.held.values()]) if (belongs(entry.session)) this.expire(entry);
  }

  /**
   * The settings changed: held calls whose tool may no longer run by voice ("never") end now, told so;
   * those now "only in the window" wait there, and the PIN no longer runs them.
   */
  recheck(): void {
    for (const entry of [...this.held.values()]) {
      if (entry.stillAllowed?.() !== false) {
        if (entry.via === 'pin' && entry.windowOnly?.() === true) {
          entry.via = 'window';
          this.changed();
        }
        continue;
      }
      this.held.delete(entry.key);
      this.remember(entry.session, { how: 'withdrawn', action: entry.action });
      entry.ended('withdrawn');
      this.changed();
    }
  }

  /** Any call is waiting. */
  get size(): number {
    return this.held.size;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The bridge stops: nothing waits any more, and no timer is left behind. */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const had = this.held.size > 0;
    this.held.clear();
    this.decided.clear();
    this.wrongPins.clear();
    if (had) for (const listener of this.listeners) listener();
  }

  private byKey(key: number): HeldCall | undefined {
    this.sweep();
    return this.held.get(key);
  }

  private decision(session: string): Unconfirmed {
    const decided = this.decided.get(session);
    if (!decided) return { refused: 'nothing' };
    if (decided.how === 'allowed')
      return { allowed: { owner: decided.owner, ...(decided.task !== undefined ? { task: decided.task } : {}) } };
    if (decided.how === 'denied') return { denied: decided.action };
    if (decided.how === 'withdrawn') return { withdrawn: decided.action };
    if (decided.how === 'confirmed') {
      const id = decided.task.id;
      return { confirmed: { action: decided.action, owner: decided.owner, ...(id !== undefined ? { task: id } : {}) } };
    }
    return { refused: 'expired' };
  }

  private remember(session: string, decision: Decision): void {
    this.decided.delete(session);
    this.decided.set(session, decision);
    while (this.decided.size > MAX_DECIDED) this.decided.delete(this.decided.keys().next().value as string);
  }

  private expire(entry: HeldCall): void {
    if (!this.held.delete(entry.key)) return;
    this.remember(entry.session, { how: 'expired', action: entry.action });
    entry.ended('expired');
    this.changed();
  }

  private sweep(): void {
    const now = this.now();
    for (const entry of [...this.held.values()]) if (entry.expires < now) this.expire(entry);
  }

  /** Listeners are told, and the timer set for the next expiry. */
  private changed(): void {
    this.schedule();
    for (const listener of this.listeners) listener();
  }

  /** One timer for the next expiry, so the window and the history hear of it on time. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let next = Infinity;
    for (const entry of this.held.values()) next = Math.min(next, entry.expires);
    if (next === Infinity) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.sweep();
        this.schedule();
      },
      Math.max(0, next - this.now()) + 1,
    );
    this.timer.unref();
  }
}
