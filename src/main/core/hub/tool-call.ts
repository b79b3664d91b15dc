import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { hasMessage, type Language, translate } from '../../../shared/i18n/translate';
import type { Problem } from '../../../shared/problem';
import type { CallOutcome } from '../../../shared/status';
import type { CallInput } from '../logs/call-history';
import { callFailureCause } from '../problems/call-failure-cause';
import { withoutPin } from './builtin/confirmation-pin';
import { sourceOf } from './call-admission';
import { resultText, shapeResult, textResult } from './result-shaping';
import type { SetEntry } from './set-entry';
import { spokenError } from './spoken-error';
import type { CallAnswer, CallContext, ViewContext } from './tool-set-view';

/**
 * One call through a tool set, from admission to its answer: what every step needs of it, and the
 * last step, `finish`, which shapes the result for its caller and writes the call's history row.
 * One object per call (rather than closures over the call's variables) keeps the hot path lean.
 */
export class ToolCall {
  readonly started = performance.now();
  /** The tool the name stands for, once admitted (an unknown name's call has none). */
  entry: SetEntry | undefined;
  /** The history row this call wrote (a held call's row, which its run or denial updates). */
  row: number | undefined;

  constructor(
    private readonly view: ViewContext,
    readonly name: string,
    readonly args: Record<string, unknown>,
    readonly context: CallContext,
  ) {}

  /** Refused before it ran: the reason, said in the voice language. */
  refuse(cause: Problem, outcome: CallOutcome = 'error'): CallAnswer {
    const { voice } = this.view;
    return this.finish(textResult(spokenError(cause, this.view.language(), voice?.serverTitle?.bind(voice)), true), outcome, cause);
  }

  /** The answer its caller gets: the result shaped for it, and the call in the history. */
  finish(result: CallToolResult, outcome: CallOutcome, cause?: Problem): CallAnswer {
    const { context, view } = this;
    const failed = result.isError === true;
    const cleaned = failed && view.redact ? withoutSecrets(result, view.redact) : result;
    const spoken = failed && context.session !== undefined && !this.wordedBySource() ? withSpokenCause(cleaned, view.language()) : cleaned;
    const out = this.shape(spoken);
    // History keeps the server's own words: the window says the cause itself, above them.
    const kept = spoken === cleaned ? out : this.shape(cleaned);
    this.row = view.history.add(this.historyInput(outcome, resultText(kept))).id;
    return cause ? { result: out, problem: cause } : { result: out };
  }

  /**
   * A voice session never reads the person's PIN, whatever a tool answered (a file tool reading the
   * config): hidden before the answer is cut to fit, or a cut through it would show its first digits.
   * xiaozhi reads one text item that fits its limit; a local client gets the result as it is.
   */
  private shape(result: CallToolResult): CallToolResult {
    const { context, view } = this;
    const shape = context.shape !== false;
    const pin = context.session !== undefined && view.voice ? view.voice.pin() : undefined;
    const visible = pin === undefined ? result : withoutPin(shape ? textResult(resultText(result), result.isError === true) : result, pin);
    return shape ? shapeResult(visible, view.maxMessageBytes(), context.idJson ?? '0', view.language()) : visible;
  }

  /** The call's source words its failures itself (a web service): nothing is said before them. */
  private wordedBySource(): boolean {
    return this.entry === undefined || sourceOf(this.view, this.entry.server)?.wordsFailures === true;
  }

  private historyInput(outcome: CallOutcome, result: string): CallInput {
    const { context, entry } = this;
    const input: CallInput = {
      caller: context.caller,
      tool: this.name,
      originalTool: entry?.original.name ?? this.name,
      server: entry?.server ?? '',
      arguments: this.args,
      durationMs: Math.round((performance.now() - this.started) * 100) / 100,
      outcome,
      result,
    };
    if (context.heldRow !== undefined) input.replaces = context.heldRow;
    if (outcome === 'held') input.confirmation = { state: 'waiting' };
    else if (context.confirmedBy !== undefined) input.confirmation = { state: 'allowed', in: context.confirmedBy };
    if (context.background?.id !== undefined) input.task = context.background.id;
    if (context.background?.disconnected) input.disconnected = true;
    return input;
  }
}

/**
 * A failed call's words come from the server, which may repeat what it was given (a key in the URL
 * it could not reach): its caller, often a model that reads them out, gets them without the secrets.
 * Only failures are read (a success's text is the tool's answer, passed on as it is).
 */
function withoutSecrets(result: CallToolResult, redact: (text: string) => string): CallToolResult {
  const text = resultText(result);
  const hidden = redact(text);
  return hidden === text ? result : textResult(hidden, true);
}

/**
 * A failure a server worded in its own language ("getaddrinfo ENOTFOUND api.tavily.com"): the model,
 * whose words the person hears, gets the cause first in the voice language, then the server's words.
 * Only causes of reaching a site or being refused by it, and a file's common system errors
 * (problems/call-failure-cause.ts); the server's words are marked as its own.
 */
function withSpokenCause(result: CallToolResult, language: Language): CallToolResult {
  const text = resultText(result);
  const cause = callFailureCause(text);
  const key = cause ? `callCause.${cause.code}` : '';
  if (!cause || !hasMessage(key)) return result;
  // Said without the host: a name in brackets reads badly aloud, and the server's words name it.
  const said = translate(language, key, { ...cause.params, site: translate(language, 'callCause.site') });
  return textResult(`${said}\n${translate(language, 'voice.serverSaid', { text })}`, true);
}
