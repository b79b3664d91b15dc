import { hasMessage, type Translate } from '../../shared/i18n/translate';
import type { Problem } from '../../shared/problem';
import type { LogEntry } from '../../shared/status';
import { useApp } from '../app-context';

/** A failure in the UI's language: the engine's code and parameters, or its English text when the code is new to us. */
export function problemMessage(
  t: Translate,
  problem: Problem | undefined,
  fallback: string | undefined,
): { message: string; hint?: string } | undefined {
  const key = problem ? `problem.${problem.code}` : '';
  if (problem && hasMessage(key)) {
    const hintKey = `${key}.hint`;
    return { message: t(key, problem.params), ...(hasMessage(hintKey) ? { hint: t(hintKey, problem.params) } : {}) };
  }
  return fallback ? { message: fallback } : undefined;
}

/**
 * A log line in the UI's language: the event it says, with the failure it reports worded into its
 * `{cause}`; the engine's English when the line carries no code, or one new to us.
 */
export function logMessage(t: Translate, entry: LogEntry): string {
  const key = entry.problem ? `problem.${entry.problem.code}` : '';
  if (!entry.problem || !hasMessage(key)) return entry.message;
  const cause = entry.cause ? problemMessage(t, entry.cause, undefined)?.message : '';
  if (cause === undefined) return entry.message;
  // An empty parameter (a web service has no version) leaves no space before the comma.
  return t(key, { ...entry.problem.params, cause }).replace(/ +([,，])/g, '$1');
}

/** What failed and what to check, under a card or a form. */
export function ProblemText(props: { problem?: Problem | undefined; text?: string | undefined; className?: string; hint?: string }) {
  const { t } = useApp();
  const found = problemMessage(t, props.problem, props.text);
  const shown = found && props.hint ? { ...found, hint: props.hint } : found;
  if (!shown) return null;
  return (
    <div className={`problem small ${props.className ?? ''}`} role="status">
      <div className="error-text">{shown.message}</div>
      {shown.hint ? <div className="muted">{shown.hint}</div> : null}
    </div>
  );
}
