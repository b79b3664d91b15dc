import type { confirmationCommands } from '../../../../shared/bridge-api';
import type { PendingConfirmation } from '../../../../shared/confirmations';
import { argumentsJson, shownCodes } from '../../../../shared/readable-arguments';
import type { ConfirmedIn } from '../../../../shared/status';
import { shownArguments } from '../../hub/action-description';
import type { Confirmations, HeldCall } from '../../hub/builtin/confirmations';
import { resultText } from '../../hub/result-shaping';
import { CallAbort } from '../../io/call-signal';
import type { BackgroundCalls, WatchedCall } from '../../long-calls/background-calls';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** A held call as the window lists it: arguments short and redacted. */
export function shownConfirmation(held: HeldCall, redact: (text: string) => string): PendingConfirmation {
  return {
    key: held.key,
    via: held.via,
    tool: held.tool,
    server: held.server,
    // The server's words and the caller's: a direction override there would run on into the tool's name beside them.
    title: redact(shownCodes(held.title)),
    args: shownArguments(held.args).map(({ name, value }) => ({ name: redact(name), value: redact(value) })),
    argumentsJson: redact(argumentsJson(held.args)),
    ...(held.said ? { said: { 'zh-CN': redact(shownCodes(held.said['zh-CN'])), en: redact(shownCodes(held.said.en)) } } : {}),
    caller: redact(shownCodes(held.caller)),
    askedAt: held.askedAt,
    expiresAt: held.expires,
  };
}

/**
 * The window's Allow and Deny. Allowing runs the call as a background task of the endpoint that
 * asked (its model hears the result through task_status, the window sees it in the task list), and
 * the history says who allowed it; denying is recorded too.
 */
export function confirmationCommandHandlers(
  c: SettingsAccess & {
    confirmations: Confirmations;
    /** The PIN, shown to the person now (made if there was none). */
    revealPin: () => string;
    newPin: () => string;
    calls: BackgroundCalls;
    /** Where the user answered: the desktop app's window or the web UI. */
    answeredIn: () => ConfirmedIn;
    redact: (text: string) => string;
  },
): CommandHandlers<typeof confirmationCommands> {
  return {
    revealConfirmationPin: async () => ({ pin: c.revealPin() }),
    // Set in the window: the person knows it (a new one is shown to them there too).
    setConfirmationPin: async ({ pin }) => c.commit({ ...c.settings(), confirmation: { pin: pin ?? c.newPin(), pinShown: true } }),
    getConfirmations: async () => c.confirmations.pending().map((held) => shownConfirmation(held, c.redact)),
    answerConfirmation: async ({ key, allow }) => {
      const by = c.answeredIn();
      if (!allow) return { outcome: c.confirmations.denyFromWindow(key, by) ? 'denied' : 'gone' };
      const abort = new CallAbort();
      const background: { id?: string } = {};
      let watched: WatchedCall | undefined;
      const held = c.confirmations.allowFromWindow(key, (entry) => {
        watched = c.calls.watch(entry.tool, entry.caller, (reason) => abort.abort(reason), entry.owner);
        const id = watched.answerLater();
        if (id !== undefined) background.id = id;
        return id;
      });
      if (!held || !watched) return { outcome: 'gone' };
      const task = watched;
      void held.run(by, { signal: abort, background }).then(
        ({ result }) => task.finish(abort.aborted ? 'cancelled' : result.isError ? 'failed' : 'done', resultText(result)),
        (error: unknown) => task.finish('failed', error instanceof Error ? error.message : String(error)),
      );
      return { outcome: 'allowed', ...(background.id !== undefined ? { task: background.id } : {}) };
    },
  };
}
