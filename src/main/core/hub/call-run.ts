import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

import { type Language, sentences, translate } from '../../../shared/i18n/translate';
import { problem } from '../../../shared/problem';
import { errorText } from '../problems/error-text';
import { ProblemError } from '../problems/server-problems';
import { ServerUnavailableError } from '../problems/server-unavailable';
import { BUILTIN_SERVER } from './builtin/builtin-tools';
import type { VoiceCall, VoiceCallNote } from './builtin/voice-calls';
import { resultText, textResult } from './result-shaping';
import type { SetEntry } from './set-entry';
import { spokenServiceError } from './spoken-error';
import type { ToolCall } from './tool-call';
import type { CallAnswer, SourceCallOptions, ToolSource, ViewContext } from './tool-set-view';

/**
 * The call runs on its server. Whatever the model should know about (server down, timeout, the
 * tool's own failure, a result its own output schema refuses) comes back as an `isError` result it
 * can read. `confirmTool`: the confirm tool's name when the set serves it (told to a call by voice).
 * Not async: an async function's frame and its await cost more per call than the rest of this step;
 * its two handlers share one small context.
 */
export function runCall(
  view: ViewContext,
  call: ToolCall,
  entry: SetEntry,
  source: ToolSource,
  confirmTool: string | undefined,
): Promise<CallAnswer> {
  const { context } = call;
  // A call by voice is known while in flight: a server's question during it can be put to its caller,
  // and what the server asked that nobody could answer is told with its result.
  const calls = view.voice?.calls;
  const { session, answerNow } = context;
  let inFlight: VoiceCall | undefined;
  if (calls && session !== undefined && entry.server !== BUILTIN_SERVER) {
    inFlight = { session, caller: context.caller, confirmTool, answerNow, notes: undefined };
    calls.add(entry.server, inFlight);
  }
  let running: Promise<CallToolResult>;
  try {
    running = source.callTool(entry.original.name, call.args, sourceOptions(call));
  } catch (error) {
    running = Promise.reject(error);
  }
  return running.then(
    (result) => {
      try {
        return answered(view, call, entry, result, inFlight);
      } catch (error) {
        return failed(view, call, entry, error);
      } finally {
        if (inFlight) calls?.remove(entry.server, inFlight);
      }
    },
    (error: unknown) => {
      try {
        return failed(view, call, entry, error);
      } finally {
        if (inFlight) calls?.remove(entry.server, inFlight);
      }
    },
  );
}

/** The server's result, checked against the tool's output schema and told truly, as its caller gets it. */
function answered(view: ViewContext, call: ToolCall, entry: SetEntry, result: CallToolResult, inFlight: VoiceCall | undefined): CallAnswer {
  const { name } = call;
  const outputSchema = entry.original.outputSchema as Record<string, unknown> | undefined;
  if (outputSchema && !result.isError) {
    // As the SDK's client did before the relay: a result its own schema refuses is the tool's failure.
    const language = view.language();
    const wrong = view.argumentCheck.checkOutput({ name, server: entry.server, outputSchema }, result.structuredContent, language);
    if (wrong) return call.refuse(problem('call.failed', { tool: name, detail: `${wrong}${translate(language, 'voice.words.end')}` }));
  }
  if (inFlight?.notes) return call.finish(toldTruly(result, inFlight.notes, name, view.language()), result.isError ? 'error' : 'ok');
  // A failure with no words would reach the user as silence: say at least which tool failed.
  if (result.isError && resultText(result).trim() === '')
    return call.finish(textResult(translate(view.language(), 'voice.call.noReason', { tool: name }), true), 'error');
  return call.finish(result, result.isError ? 'error' : 'ok');
}

/** What the server is told of the call (only what the call has: most have no progress, task or background). */
function sourceOptions(call: ToolCall): SourceCallOptions {
  const { context } = call;
  // One literal with every part (a part added later grew its property store per call).
  const { background } = context;
  return {
    signal: context.signal,
    onProgress: context.onProgress,
    caller: context.caller,
    session: context.session,
    owner: context.owner,
    background: background ? true : undefined,
    task: background,
    nameTask: context.nameTask,
  };
}

/** A call that threw: why, as the model should hear it (and the log, for what is the server's fault). */
function failed(view: ViewContext, call: ToolCall, entry: SetEntry, error: unknown): CallAnswer {
  const { name, context } = call;
  if (error instanceof ServerUnavailableError)
    return call.refuse(problem('call.unavailable', { tool: name, server: entry.server, state: error.state }));
  if (context.signal?.aborted) return call.refuse(problem('call.cancelled', { tool: name }), 'cancelled');
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    view.log.warn(
      `call ${name} (server "${entry.server}") did not finish within ${timeoutSeconds(error) ?? '?'} s; the server was told to cancel it`,
      problem('log.callTimedOut', { tool: name, server: entry.server, seconds: timeoutSeconds(error) ?? '?' }),
    );
    return call.refuse(problem('call.timeout', { tool: name, seconds: timeoutSeconds(error) ?? '?' }), 'timeout');
  }
  if (error instanceof ProblemError) {
    // A web service's failure, already worded for the model (HTTP status, the platform's own message).
    view.log.warn(`call ${name} failed: ${error.message}`, problem('log.callFailed', { tool: name, detail: error.message }));
    return call.finish(textResult(spokenServiceError(name, error, view.language()), true), 'error', error.problem);
  }
  const detail = errorText(error);
  view.log.warn(`call ${name} failed: ${detail}`, problem('log.callFailed', { tool: name, detail }));
  return call.refuse(problem('call.failed', { tool: name, detail }));
}

/**
 * A call by voice's result, with what the tool's own words would not say truly: a failure after it
 * wanted xiaozhi's model (sampling, which voice calls cannot offer: its English error, often wrapped
 * twice, is replaced), or a question nobody could be asked (its "declined" was nobody's choice).
 */
function toldTruly(result: CallToolResult, notes: ReadonlySet<VoiceCallNote>, tool: string, language: Language): CallToolResult {
  if (notes.has('sampling') && result.isError) return textResult(translate(language, 'voice.call.samplingRefused', { tool }), true);
  if (!notes.has('unaskable')) return result;
  const said = resultText(result).trim();
  const note = translate(language, 'voice.call.questionNotAsked', { tool });
  return textResult(
    sentences(language, note, said === '' ? undefined : translate(language, 'voice.call.toolSaid', { text: said })),
    result.isError === true,
  );
}

/** The limit in seconds to a tenth (0.3, 1.5, 60): whole seconds would say 0 s for a limit under half a second. */
function timeoutSeconds(error: McpError): number | undefined {
  const timeout = (error.data as { timeout?: number } | undefined)?.timeout;
  return typeof timeout === 'number' ? Math.round(timeout / 100) / 10 : undefined;
}
