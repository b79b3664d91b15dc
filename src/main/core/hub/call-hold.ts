import { type Language, sentences, translate } from '../../../shared/i18n/translate';
import { problem } from '../../../shared/problem';
import type { ConfirmedIn } from '../../../shared/status';
import { actionTitle, describeAction } from './action-description';
import { BUILTIN_SERVER } from './builtin/builtin-tools';
import { CONFIRM_TOOL } from './builtin/confirm-tool';
import type { HeldVia } from './builtin/confirmations';
import { textResult } from './result-shaping';
import type { SetEntry } from './set-entry';
import type { ToolCall } from './tool-call';
import type { CallAnswer, CallContext, ToolIdentity, ViewContext, VoiceGuard } from './tool-set-view';

/** What holding needs of the set: a tool's name in it, and how to run the call once confirmed. */
export interface HoldingSet {
  nameOf(tool: ToolIdentity): string | undefined;
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer>;
}

/**
 * Holds a call by voice for confirmation. Asked first ("ask"), the answer tells the model to ask the
 * person for their PIN (never in the answer: a model cannot confirm by itself); "window", that it
 * waits for Allow in the window or the web UI, which nothing the model calls can give.
 */
export function holdForConfirmation(
  set: HoldingSet,
  view: ViewContext,
  voice: VoiceGuard,
  call: ToolCall,
  entry: SetEntry,
  via: HeldVia,
): CallAnswer {
  const { name, args, context } = call;
  const { session, caller, boundTo } = context;
  // The history row of this held call: its outcome (run, denied, expired) updates it.
  const row: { id?: number } = {};
  const language = view.language();
  const action = describeAction(entry.original, args, { language, server: voice.serverTitle?.(entry.server, language) });
  // The first call that asks for the PIN makes one if the user set none (shown only in the window).
  const where = via === 'pin' ? voice.pinFor() : undefined;
  voice.confirmations.hold({
    session: session as string,
    via,
    caller,
    owner: context.owner ?? caller,
    server: entry.server,
    tool: name,
    title: actionTitle(entry.original, name),
    action,
    said: saidIn((l) => describeAction(entry.original, {}, { language: l, server: voice.serverTitle?.(entry.server, l) })),
    args,
    run: (confirmedBy: ConfirmedIn, options = {}) => {
      const confirmed: CallContext = { caller, session: session as string, confirmedBy };
      if (row.id !== undefined) confirmed.heldRow = row.id;
      if (boundTo) confirmed.boundTo = boundTo;
      if (options.signal) confirmed.signal = options.signal;
      if (options.onProgress) confirmed.onProgress = options.onProgress;
      if (options.background) confirmed.background = options.background;
      return set.call(name, args, confirmed);
    },
    stillAllowed: () => voice.policyOf(entry.server, entry.original) !== 'never',
    windowOnly: () => voice.policyOf(entry.server, entry.original) === 'window',
    // Who asked, what, and what became of it: in the history like the call it would have been.
    ended: (how, by) =>
      view.history.add({
        caller,
        ...(row.id !== undefined ? { replaces: row.id } : {}),
        confirmation: { state: how, ...(how === 'denied' ? { in: by ?? 'window' } : {}) },
        tool: name,
        originalTool: entry.original.name,
        server: entry.server,
        arguments: args,
        durationMs: 0,
        outcome: 'cancelled',
        result: translate(
          view.language(),
          how === 'denied' ? 'voice.confirm.denied' : how === 'withdrawn' ? 'voice.confirm.withdrawn' : 'voice.confirm.expired',
          { action },
        ),
      }),
  });
  const confirmTool = set.nameOf({ server: BUILTIN_SERVER, tool: CONFIRM_TOOL }) ?? CONFIRM_TOOL;
  const text =
    via === 'window'
      ? translate(language, 'voice.confirm.askWindow', { action })
      : sentences(
          language,
          translate(language, 'voice.confirm.ask', { action, confirmTool }),
          // A PIN they never saw: Allow in the window is the plain way through, the PIN shown beside it.
          where === undefined
            ? undefined
            : translate(language, where === 'configFile' ? 'voice.confirm.whereIsPin.configFile' : `voice.confirm.orAllow.${where}`),
        );
  const answer = call.finish(textResult(text), 'held', problem('call.held', { tool: name, via }));
  row.id = call.row;
  return answer;
}

/** One text per window language. */
function saidIn(say: (language: Language) => string): Record<Language, string> {
  return { 'zh-CN': say('zh-CN'), en: say('en') };
}
