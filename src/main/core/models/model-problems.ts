import { own } from '../../../shared/own';
import { type Problem, problem } from '../../../shared/problem';

/**
 * Why the chat model could not answer, as a problem the window and the CLI word in the reader's
 * language (`problem.model.*` in the dictionaries); the English here is for the log and `--json`.
 */
export class ModelError extends Error {
  constructor(readonly problem: Problem) {
    super(modelEnglish(problem));
  }
}

const ENGLISH: Record<string, (p: Problem['params']) => string> = {
  'model.notConfigured': () => 'no chat model is set up',
  'model.badKey': (p) => `the model provider refused the API key (HTTP ${p.status})`,
  'model.rateLimited': (p) => `the model provider is rate limiting${p.seconds !== undefined ? `; it says to wait ${p.seconds} s` : ''}`,
  'model.contextTooLong': () => 'the request is longer than the model can read (its context length)',
  'model.noSuchModel': (p) => `the provider has no model called "${p.model}"`,
  'model.noToolSupport': (p) => `the model "${p.model}" does not call tools (functions)`,
  'model.unreachable': (p) => `could not reach the model at ${p.url}${p.detail ? `: ${p.detail}` : ''}`,
  'model.timeout': (p) => `the model did not answer within ${p.seconds} s`,
  'model.failed': (p) => `the model provider answered HTTP ${p.status}${p.detail ? `: ${p.detail}` : ''}`,
  'model.cancelled': () => 'cancelled',
  'model.sessionGone': () => 'the held call is no longer waiting',
};

export function modelEnglish(item: Problem): string {
  const word = own(ENGLISH, item.code);
  return word ? word(item.params) : item.code;
}

/** Characters kept of a provider's own error message (it may quote what it was sent). */
const MAX_DETAIL = 200;
const clip = (text: string) => (text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text);

/** What an OpenAI-compatible provider's error means, from its status, its `error.code` and its message. */
export interface ProviderFailure {
  status: number | undefined;
  code?: string | null | undefined;
  message: string;
  retryAfter?: string | null | undefined;
}

/**
 * A context-length refusal in the providers' own words: OpenAI's `context_length_exceeded`, DeepSeek's
 * "maximum context length is … tokens", DashScope's "Range of input length should be …", Zhipu's
 * 1261 "Prompt 超长", Ollama's "prompt too long".
 */
const CONTEXT_TOO_LONG = /context[_ ]length|maximum context|input length|too long|超长|exceeds? the (?:model'?s? )?(?:context|max)/i;
/** "does not support tools" (Ollama), "tool calling is not supported", "function call not supported". */
const NO_TOOLS = /does not support tools|tools? (?:calling )?(?:is )?not supported|function.?call(?:ing)? (?:is )?not supported/i;
/** An unknown model: OpenAI's `model_not_found`, "The model `x` does not exist", DashScope's "Model not exist", Ollama's "model 'x' not found". */
const NO_MODEL = /model_not_found|model.*(?:does not exist|not exist|not found)|no such model|InvalidEndpointOrModel/i;

export function providerProblem(failure: ProviderFailure, model: string): Problem {
  const { status, code, message } = failure;
  const said = `${code ?? ''} ${message}`;
  if (status === 401 || status === 403 || code === 'invalid_api_key') return problem('model.badKey', { status: status ?? 401 });
  if (status === 429) {
    const seconds = retryAfterSeconds(failure.retryAfter);
    return problem('model.rateLimited', seconds === undefined ? {} : { reason: 'wait', seconds });
  }
  if (code === 'context_length_exceeded' || ((status === 400 || status === 413) && CONTEXT_TOO_LONG.test(said)))
    return problem('model.contextTooLong');
  if (NO_TOOLS.test(said)) return problem('model.noToolSupport', { model });
  if (status === 404 || NO_MODEL.test(said)) return problem('model.noSuchModel', { model });
  return problem('model.failed', { status: status ?? 0, detail: clip(message) });
}

/** `Retry-After` in whole seconds (a number of seconds, or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
