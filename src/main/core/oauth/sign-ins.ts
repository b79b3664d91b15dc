import { problem } from '../../../shared/problem';
import { isMcpServer, type Settings } from '../../../shared/settings';
import type { ServerStatus } from '../../../shared/status';
import type { Logger } from '../logs/log-book';
import { ProblemError, say } from '../problems/server-problems';
import { followByFetch, opensByFetch, signsInByItself } from './open-authorization';
import { type SignIn, signInProblem, startSignIn } from './sign-in';
import type { TokenVault } from './token-vault';

/** What stops a server for the user until they sign in: the server is started again once they have. */
export const WAITS_FOR_SIGN_IN = new Set(['server.needsSignIn', 'server.signInAgain']);

export interface SignInsOptions {
  vault: TokenVault;
  env: NodeJS.ProcessEnv;
  settings(): Settings;
  log: Logger;
  status(server: string): ServerStatus | undefined;
  restart(server: string): Promise<void>;
  /** Opens the sign-in page in the system browser (the desktop app); none: the caller opens it (the web UI). */
  openExternal?: ((url: string) => Promise<void> | void) | undefined;
  timeoutMs?: number;
}

/**
 * The bridge's sign-ins: one at a time per server, started from the window (`signIn`), and the
 * servers waiting for one started again as soon as their tokens are saved, here or by
 * `xiaozhi-tray login` in another process (the vault tells).
 */
export class SignIns {
  private readonly running = new Map<string, SignIn>();
  /** Sign-ins being set up (discovery, registration), per server: the newest is the one kept. */
  private readonly starting = new Map<string, Promise<SignIn>>();
  private unwatch: (() => void) | undefined;
  /** `XIAOZHI_TRAY_OAUTH_OPEN=auto`: the failure (its time) each server's sign-in was started for, once each. */
  private readonly startedFor = new Map<string, number>();

  constructor(private readonly options: SignInsOptions) {}

  /** Starts a sign-in of `server`; resolves with the page to open, and whether the app opened it. */
  async start(server: string): Promise<{ url: string; opened: boolean }> {
    const { options } = this;
    const settings = options.settings().servers.find((s) => s.name === server);
    if (!settings) throw new Error(`No server is called "${server}".`);
    if (!isMcpServer(settings) || settings.transport === 'stdio')
      throw new Error(`"${server}" is not a remote MCP server: it has no sign-in.`);
    // One at a time: a second press waits for the first to be set up, then replaces it (its listener
    // closed, and its registration, made last, the one kept for the code exchange).
    const before = this.starting.get(server);
    const starting = (async () => {
      await before?.catch(() => undefined);
      this.running.get(server)?.cancel();
      return startSignIn({
        settings,
        vault: options.vault,
        env: options.env,
        modelscopeApiKey: options.settings().modelscope.apiKey,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      });
    })();
    this.starting.set(server, starting);
    const signIn = await starting.catch((error: unknown) => {
      if (this.starting.get(server) === starting) this.starting.delete(server);
      const why = signInProblem(error);
      say(options.log, 'warn', why);
      throw new ProblemError(why);
    });
    if (this.starting.get(server) === starting) this.starting.delete(server);
    else {
      // Pressed again meanwhile (that one replaces this one), or the app stopped.
      signIn.done.catch(() => undefined);
      signIn.cancel();
      throw new ProblemError(problem('server.signInFailed', { reason: 'denied' }));
    }
    this.running.set(server, signIn);
    const log = options.log;
    signIn.done
      .then(
        () => {
          log.info(`signed in to "${server}"`, problem('log.signedIn', { server }));
          void this.resume(server);
        },
        (error: unknown) => {
          // The reason only (a timeout, a refusal), never the answer's own text.
          if (this.running.get(server) === signIn) say(log, 'warn', signInProblem(error));
        },
      )
      .finally(() => {
        if (this.running.get(server) === signIn) this.running.delete(server);
      });
    let opened = false;
    if (opensByFetch(options.env)) {
      void followByFetch(signIn.url);
      opened = true;
    } else if (options.openExternal) {
      await options.openExternal(signIn.url);
      opened = true;
    }
    return { url: signIn.url, opened };
  }

  /** With `XIAOZHI_TRAY_OAUTH_OPEN=auto` only: starts the sign-in of each server that waits for one, once per wait. */
  statusChanged(): void {
    if (!signsInByItself(this.options.env)) return;
    for (const settings of this.options.settings().servers) {
      const status = this.options.status(settings.name);
      if (!status || status.state !== 'failed' || !WAITS_FOR_SIGN_IN.has(status.lastErrorCause?.code ?? '')) continue;
      if (this.running.has(settings.name) || this.startedFor.get(settings.name) === status.since) continue;
      this.startedFor.set(settings.name, status.since);
      this.start(settings.name).catch(() => undefined);
    }
  }

  /** Starts again the servers that wait for a sign-in, as soon as their tokens are saved (by whichever process). */
  watch(): void {
    this.unwatch ??= this.options.vault.onChange(() => {
      for (const server of this.options.settings().servers) void this.resume(server.name);
    });
  }

  stop(): void {
    this.unwatch?.();
    this.unwatch = undefined;
    for (const signIn of this.running.values()) signIn.cancel();
    this.running.clear();
    // Those still being set up give up once they are (their listener closed), as if pressed again.
    this.starting.clear();
  }

  private async resume(server: string): Promise<void> {
    const status = this.options.status(server);
    if (!status?.enabled || status.state !== 'failed' || !WAITS_FOR_SIGN_IN.has(status.lastErrorCause?.code ?? '')) return;
    const record = await this.options.vault.get(server).catch(() => undefined);
    // Tokens saved after it stopped: not a registration half-way through a sign-in.
    if (!record?.tokens || (record.savedAt ?? 0) < status.since) return;
    // Asked again meanwhile (two change events): started once.
    const now = this.options.status(server);
    if (now?.state !== 'failed') return;
    await this.options.restart(server).catch((error: unknown) => this.options.log.warn(`could not start "${server}": ${String(error)}`));
  }
}
