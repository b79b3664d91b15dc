import { randomInt } from 'node:crypto';
import type { CallAnswer } from '../tool-set-view';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { CallSignal } from '../call-signal';

/** How long a held call waits for its confirmation (about a minute, as a spoken exchange takes). */
export const CONFIRM_WINDOW_MS = 60_000;
/** Held calls kept at once: a model that asks again and again must not grow this without end. */
const MAX_HELD = 32;
/** Held calls of one session: a model that loops on a risky tool expires its own oldest, not other sessions' calls. */
export const MAX_HELD_PER_SESSION = 8;
/** Codes remembered after their call was answered, so a late confirm_action hears what became of it. */
const MAX_DECIDED = 64;
/**
 * Wrong codes a session may say before its held calls are cancelled: four digits stop nothing if a
 * model may guess on and on (nothing requires the user to speak between two confirm calls).
 */
export const MAX_WRONG_CODES = 5;
/** Sessions whose wrong codes are counted at once (the oldest forgotten first). */
const MAX_COUNTED_SESSIONS = 256;

/**
 * A code as a model may pass it on from speech: "38 97", "code 3897", full-width "３８９７", or the
 * number 3897. Only its digits count (NFKC makes full-width digits plain ones).
 */
export function normaliseCode(spoken: unknown): string {
  const text = typeof spoken === 'number' ? String(spoken) : typeof spoken === 'string' ? spoken : '';
  return text.normalize('NFKC').replace(/[^0-9]/g, '');
}

/** How a held call may run: in the background, stoppable, as a task whose id the history records. */
export interface HeldRunOptions {
  signal?: CallSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  background?: { id?: string } | undefined;
}

/** A call held until the user confirms it. */
export interface HeldCall {
  /** The window's handle (the code is for the voice path only). */
  key: number;
  code: string;
  /** The endpoint session it was asked on: only that session's confirm tool can run it. */
  session: string;
  caller: string;
  /** Whose task it becomes when it runs in the background: the endpoint's id. */
  owner: string;
  server: string;
  tool: string;
  /** The tool's title (or name), and the action as the user hears it (title and main arguments). */
  title: string;
  action: string;
  args: Record<string, unknown>;
  askedAt: number;
  expires: number;
  /** Runs the call as asked (the policy already answered). */
  run(confirmedBy: string, options?: HeldRunOptions): Promise<CallAnswer>;
  /** Told when it ends without running: denied (by whom: "window", "web UI"), expired, or withdrawn (its tool set to "never"); the history records it. */
  ended(how: 'denied' | 'expired' | 'withdrawn', by?: string): void;
  /** Whether the tool may still run by voice (the policy read again: absent, yes). */
  stillAllowed?: () => boolean;
}

/** What became of a code no longer held. */
type Decision =
  | { how: 'denied' | 'expired' | 'withdrawn'; session: string; action: string }
  | { how: 'allowed'; session: string; owner: string; task?: string }
  /** Confirmed by voice: `task` gets the task id if the confirm call goes on in the background. */
  | { how: 'confirmed'; session: string; owner: string; action: string; task: { id?: string } };

export type Taken =
  | { held: HeldCall }
  | { refused: 'unknown' | 'expired' | 'tooManyWrong' }
  | { denied: string }
  | { withdrawn: string }
  | { confirmed: { action: string; owner: string; task?: string } }
  | { allowed: { owner: string; task?: string } };

/**
 * The calls held for confirmation, each under a one-time code bound to its session, tool and
 * arguments (the code runs exactly what was asked, once), expiring after a minute. The window can
 * answer them too (Allow, Deny); what became of a code is remembered for a while, so a confirmation
 * by voice after the window answered is told so rather than "not valid".
 */
export class Confirmations {
  private readonly held = new Map<string, HeldCall>();
  private readonly decided = new Map<string, Decision>();
  private readonly listeners = new Set<() => void>();
  private nextKey = 1;
  private timer: NodeJS.Timeout | undefined;
  /** Wrong codes said per session since its last lockout. */
  private readonly wrong = new Map<string, number>();
  /** Told once per lockout (the bridge logs it). */
  onTooManyWrong: (session: string, cancelled: number) => void = () => {};
  /** Codes used elsewhere (questions put by voice): never given here too. */
  otherCodes: (code: string) => boolean = () => false;

  constructor(
    private readonly windowMs: number = CONFIRM_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  hold(call: Omit<HeldCall, 'key' | 'code' | 'askedAt' | 'expires'>): HeldCall {
    this.sweep();
    const mine = [...this.held.values()].filter((entry) => entry.session === call.session);
    while (mine.length >= MAX_HELD_PER_SESSION) this.expire(mine.shift() as HeldCall);
    while (this.held.size >= MAX_HELD) this.expire(this.held.values().next().value as HeldCall);
    const code = this.newCode(() => false);
    const askedAt = this.now();
    const entry: HeldCall = { ...call, key: this.nextKey++, code, askedAt, expires: askedAt + this.windowMs };
    this.held.set(code, entry);
    this.changed();
    return entry;
  }

  /** Four digits, easy to say; a code in use (held, just answered, or `inUse`) is never given twice. */
  newCode(inUse: (code: string) => boolean): string {
    let code = '';
    for (
      let tries = 0;
      tries < 100 && (code === '' || this.held.has(code) || this.decided.has(code) || inUse(code) || this.otherCodes(code));
      tries++
    )
      code = String(randomInt(1000, 10_000));
    this.decided.delete(code);
    return code;
  }

  /** The held call of a code, taken (a code works once); else what became of it, or why it is refused. */
  take(code: string, session: string | undefined, task: { id?: string } = {}): Taken {
    const wanted = normaliseCode(code);
    const entry = this.held.get(wanted);
    // Another session's code is answered as an unknown one: the answer must not tell that a code is live elsewhere.
    if (!entry || entry.session !== session) return this.counted(this.decision(wanted, session), session);
    if (entry.expires < this.now()) {
      this.expire(entry);
      return { refused: 'expired' };
    }
    // Used once: said again, it is told it was confirmed already (and its task, if it runs as one), not "not valid",
    // which would invite the model to ask for the same action again.
    this.held.delete(entry.code);
    this.remember(entry.code, { how: 'confirmed', session: entry.session, owner: entry.owner, action: entry.action, task });
    this.changed();
    return { held: entry };
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
    this.held.delete(entry.code);
    const id = task(entry);
    this.remember(entry.code, { how: 'allowed', session: entry.session, owner: entry.owner, ...(id !== undefined ? { task: id } : {}) });
    this.changed();
    return entry;
  }

  /** The window's Deny; false when it was no longer waiting. */
  denyFromWindow(key: number, by: string): boolean {
    const entry = this.byKey(key);
    if (!entry) return false;
    this.held.delete(entry.code);
    this.remember(entry.code, { how: 'denied', session: entry.session, action: entry.action });
    entry.ended('denied', by);
    this.changed();
    return true;
  }

  /**
   * A voice session closed: its held calls end (only its confirm tool could run them, and after a
   * reconnect the model asks again; kept, the window would list one action twice, and Allow both).
   */
  dropSession(session: string): void {
    for (const entry of [...this.held.values()]) if (entry.session === session) this.expire(entry);
    this.wrong.delete(session);
  }

  /** The settings changed: held calls whose tool may no longer run by voice ("never") end now, told so. */
  recheck(): void {
    for (const entry of [...this.held.values()]) {
      if (entry.stillAllowed?.() !== false) continue;
      this.held.delete(entry.code);
      this.remember(entry.code, { how: 'withdrawn', session: entry.session, action: entry.action });
      entry.ended('withdrawn');
      this.changed();
    }
  }

  /** Any call is waiting: the confirm tool has something to do. */
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
    this.wrong.clear();
    if (had) for (const listener of this.listeners) listener();
  }

  private byKey(key: number): HeldCall | undefined {
    this.sweep();
    for (const entry of this.held.values()) if (entry.key === key) return entry;
    return undefined;
  }

  private decision(code: string, session: string | undefined): Taken {
    const decided = this.decided.get(code);
    if (!decided || decided.session !== session) return { refused: 'unknown' };
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

  /** An unknown code counts against its session: past the bound, the session's held calls are cancelled. */
  private counted(taken: Taken, session: string | undefined): Taken {
    if (!('refused' in taken) || taken.refused !== 'unknown') return taken;
    const key = session ?? '';
    const count = (this.wrong.get(key) ?? 0) + 1;
    this.wrong.delete(key);
    if (count < MAX_WRONG_CODES) {
      this.wrong.set(key, count);
      while (this.wrong.size > MAX_COUNTED_SESSIONS) this.wrong.delete(this.wrong.keys().next().value as string);
      return taken;
    }
    const mine = [...this.held.values()].filter((entry) => entry.session === key);
    for (const entry of mine) this.expire(entry);
    this.onTooManyWrong(key, mine.length);
    return { refused: 'tooManyWrong' };
  }

  private remember(code: string, decision: Decision): void {
    this.decided.delete(code);
    this.decided.set(code, decision);
    while (this.decided.size > MAX_DECIDED) this.decided.delete(this.decided.keys().next().value as string);
  }

  private expire(entry: HeldCall): void {
    if (!this.held.delete(entry.code)) return;
    this.remember(entry.code, { how: 'expired', session: entry.session, action: entry.action });
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
