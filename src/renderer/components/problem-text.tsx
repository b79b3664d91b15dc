import type { Problem } from '../../shared/problem';
import { problemMessage } from '../../shared/problem-words';
import { useApp } from '../app-context';

/** What failed and what to check, under a card or a form. */
export function ProblemText(props: {
  problem?: Problem | undefined;
  text?: string | undefined;
  className?: string;
  hint?: string | undefined;
  /** Said before the message ("上次尝试："): whose failure it is. */
  lead?: string | undefined;
  /** 'warn' for what waits on the user (a sign-in) rather than what broke. */
  tone?: 'bad' | 'warn';
}) {
  const { t } = useApp();
  const found = problemMessage(t, props.problem, props.text);
  const shown = found && props.hint ? { ...found, hint: props.hint } : found;
  if (!shown) return null;
  return (
    <div className={`problem small ${props.className ?? ''}`} role="status">
      <div className={props.tone === 'warn' ? 'warn-text' : 'error-text'}>
        {props.lead}
        {shown.message}
      </div>
      {shown.hint ? <div className="muted">{shown.hint}</div> : null}
    </div>
  );
}
