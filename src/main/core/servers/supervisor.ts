import { problem } from '../../../shared/problem';
import { SIGN_IN_CODES } from '../../../shared/sign-in-status';
import type { ServerState, ServerStatus } from '../../../shared/status';
import type { Logger } from '../logs/log-book';
import { type Failure, say } from '../problems/server-problems';
import { Attempt } from './attempt';
import { type FailureKind, NO_FAILURES, type RestartHistory, restartStep } from './restart-policy';
import type { Supervision } from './supervision';

export type AttemptState = 'starting' | 'restarting';

export interface SupervisorOptions {
  log: Logger;
  supervision: Supervision;
  /** One attempt to run the server (spawn and list, connect, build a service's tools), owned by `attempt`. */
  run: (attempt: Attempt, state: AttemptState) => Promise<void>;
  onStatus: () => void;
  /** The server came up or went down (to or from `running`). */
  onAvailability?: () => void;
  /** A restart attempt began (after a failure); it settles when up or failed. */
  onAttempt?: ((attempt: Promise<void>) => void) | undefined;
}

/** How a failure is weighed: whether a crash loop gives up, and what else its log line says. */
export interface FailureTerms {
  givesUp: boolean;
  /** Extra parameters of the log line (the last line of stderr). */
  said?: Record<string, string>;
}

/**
 * The lifecycle every kind of server shares (an MCP server, a web service): its state and since
 * when, its restarts, its last failure and the history the restart policy weighs, and the attempts
 * to run it, one at a time. A failure is decided here once: stay failed, or restart after the
 * policy's delay, with a timer the attempt under way owns (a stop in between disposes it).
 */
export class Supervisor {
  private current = new Attempt();
  private stateNow: ServerState = 'stopped';
  private sinceNow = Date.now();
  private restartCount = 0;
  private failure: Failure | undefined;
  private history: RestartHistory = NO_FAILURES;
  private runningSince = 0;
  /** When the restart the policy chose starts (until its attempt begins). */
  private nextTry: number | undefined;

  constructor(private readonly opts: SupervisorOptions) {
    this.current.end();
  }

  get state(): ServerState {
    return this.stateNow;
  }

  get since(): number {
    return this.sinceNow;
  }

  get restarts(): number {
    return this.restartCount;
  }

  get lastFailure(): Failure | undefined {
    return this.failure;
  }

  /** Its part of a status (state, since, restarts, the last failure worded by `words`). */
  status(
    words: (failure: Failure) => string,
  ): Pick<ServerStatus, 'state' | 'since' | 'restarts' | 'lastError' | 'lastErrorCause' | 'cause' | 'retryAt'> {
    const failure = this.failure;
    return {
      state: this.stateNow,
      since: this.sinceNow,
      restarts: this.restartCount,
      ...(failure ? { lastError: words(failure), lastErrorCause: failure.problem } : {}),
      ...(failure?.cause ? { cause: failure.cause } : {}),
      ...(this.stateNow === 'restarting' && this.nextTry !== undefined ? { retryAt: this.nextTry } : {}),
    };
  }

  /** The attempt under way (ended when there is none). */
  get attempt(): Attempt {
    return this.current;
  }

  setState(state: ServerState): void {
    if (this.stateNow === state) return;
    const flips = this.stateNow === 'running' || state === 'running';
    this.stateNow = state;
    if (flips) this.opts.onAvailability?.();
    this.sinceNow = Date.now();
    this.opts.onStatus();
  }

  /** A new attempt; the one before it ends, its timers and callbacks silent from now on. */
  begin(): Attempt {
    this.nextTry = undefined;
    this.current.end();
    this.current = new Attempt();
    return this.current;
  }

  /** Ends the attempt under way (a stop, a wind-down): nothing it armed fires, the restart to come included. */
  end(): void {
    this.current.end();
  }

  /** Starts from stopped or failed, with nothing counted against it; settles when the first attempt has. */
  async start(): Promise<void> {
    if (this.stateNow === 'running' || this.stateNow === 'starting') return;
    this.history = NO_FAILURES;
    this.failure = undefined;
    await this.opts.run(this.begin(), 'starting');
  }

  /** A new attempt now (a session the server forgot); the caller has cleaned up the old one. */
  retryNow(): Promise<void> {
    const attempt = this.opts.run(this.begin(), 'restarting');
    this.opts.onAttempt?.(attempt);
    return attempt;
  }

  /** The attempt succeeded: running, with no failure to show (and, for `forgetFailures`, none counted). */
  up(options: { forgetFailures: boolean }): void {
    this.runningSince = Date.now();
    this.failure = undefined;
    if (options.forgetFailures) this.history = NO_FAILURES;
    this.setState('running');
  }

  /** How long it had run when it went down (0: it never came up); read once per failure. */
  ranFor(): number {
    const ranForMs = this.runningSince ? Date.now() - this.runningSince : 0;
    this.runningSince = 0;
    return ranForMs;
  }

  /**
   * After a failure (the attempt cleaned up): stays failed, or restarts after the policy's delay,
   * said in the log either way. The restart's timer belongs to the attempt under way.
   */
  decide(failure: Failure, kind: FailureKind, terms: FailureTerms, ranForMs = 0): void {
    this.failure = failure;
    const s = this.opts.supervision;
    const step = restartStep(this.history, { kind, ranForMs, now: Date.now(), draw: Math.random() }, { ...s, givesUp: terms.givesUp });
    this.history = step.history;
    const said = terms.said ?? {};
    const log = this.opts.log;
    if (step.next === 'fail') {
      // A sign-in to wait for is a step for the user, not a breakdown; it is started again once they sign in.
      if (step.why === 'permanent' && SIGN_IN_CODES.has(failure.problem.code)) say(log, 'warn', failure.problem);
      else if (step.why === 'permanent') say(log, 'error', problem('server.notRetrying'), failure);
      else {
        const seconds = Math.round(s.crashWindowMs / 1000);
        say(log, 'error', problem('server.crashLoop', { count: step.crashes, seconds, ...said }), failure);
      }
      this.setState('failed');
      return;
    }
    say(log, 'warn', problem('server.restarting', { seconds: Math.round(step.delayMs / 100) / 10, ...said }), failure);
    this.restartCount++;
    this.nextTry = Date.now() + step.delayMs;
    this.setState('restarting');
    // Each attempt says its own failure (it ends in `decide`); `onAttempt` is handed it to wait on.
    this.current.timeout(() => void this.retryNow(), step.delayMs);
  }
}
