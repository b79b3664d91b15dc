import { hasMessage, type MessageKey, type Translate } from './i18n/translate';
import type { Problem } from './problem';
import type { LogEntry } from './status';

/**
 * A failure in the reader's language (the window's, or the CLI's): the engine's code and parameters,
 * or its English text when the code is new to us. One wording for every place a problem is shown.
 */
export function problemMessage(
  t: Translate,
  problem: Problem | undefined,
  fallback: string | undefined,
): { message: string; hint?: string } | undefined {
  const key = problem ? `problem.${problem.code}` : '';
  if (problem && hasMessage(key)) {
    // A reason with words of its own (`problem.<code>.reason.<reason>`) is said with them and its own advice:
    // a code such as "noRegistration" in brackets tells a user nothing.
    const reasonKey = `${key}.reason.${String(problem.params.reason ?? '')}`;
    const said = problem.params.reason !== undefined && hasMessage(reasonKey) ? reasonKey : key;
    // Advice that depends on where something came from (`advice`: the download sources chosen) has a hint of its own.
    const advice = problem.params.advice !== undefined ? `.${String(problem.params.advice)}` : '';
    const hintKey = [`${said}.hint${advice}`, `${said}.hint`, `${key}.hint${advice}`, `${key}.hint`].find(hasMessage);
    return { message: t(said, problem.params), ...(hintKey ? { hint: t(hintKey, problem.params) } : {}) };
  }
  return fallback ? { message: fallback } : undefined;
}

/**
 * A log line in the reader's language: the event it says, with the failure it reports worded into its
 * `{cause}`; the engine's English when the line carries no code, or one new to us.
 */
export function logMessage(t: Translate, entry: Pick<LogEntry, 'message' | 'problem' | 'cause'>, where?: 'window'): string {
  // A line the console words with its flags (--ui, MCP_ENDPOINT) has plain words of its own for the window.
  if (where === 'window' && entry.problem && hasMessage(`problem.${entry.problem.code}.window`))
    return t(`problem.${entry.problem.code}.window` as MessageKey, entry.problem.params);
  const key = entry.problem ? `problem.${entry.problem.code}` : '';
  if (!entry.problem || !hasMessage(key)) return entry.message;
  const cause = entry.cause ? causeWords(t, entry.cause) : '';
  if (cause === undefined) return entry.message;
  // A line that says one of several outcomes (`reason`) has words for each: `problem.<code>.reason.<reason>`.
  const reasonKey = `${key}.reason.${String(entry.problem.params.reason ?? '')}`;
  const said = entry.problem.params.reason !== undefined && hasMessage(reasonKey) ? reasonKey : key;
  // An empty parameter (a web service has no version) leaves no space before the comma.
  return t(said, { ...entry.problem.params, cause }).replace(/ +([,，])/g, '$1');
}

/** What to do about a log line's failure: its cause's advice, then the event's own (none for a plain line). */
export function logHint(t: Translate, entry: Pick<LogEntry, 'problem' | 'cause'>): string | undefined {
  const hints = [problemMessage(t, entry.cause, undefined)?.hint, problemMessage(t, entry.problem, undefined)?.hint].filter(Boolean);
  // Chinese sentences run on (after 。 no space); English ones are spaced.
  return hints.length > 0 ? hints.reduce((all, hint) => (/[。！？]$/.test(all as string) ? `${all}${hint}` : `${all} ${hint}`)) : undefined;
}

/** A cause in a log line: a start cause (a folder gone, a key not given) in the card's words, anything else as a problem. */
function causeWords(t: Translate, cause: Problem): string | undefined {
  const startKey = `callCause.${cause.code}`;
  if (cause.code.startsWith('start.') && hasMessage(startKey)) return t(startKey, cause.params);
  return problemMessage(t, cause, undefined)?.message;
}
