import type { ReactNode } from 'react';

import type { ServerStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { callCauseText } from './call-cause';
import { ProblemText } from './problem-text';
import { useNow } from './use-now';

/**
 * Why a server is not running, as its card says it: the cause in the person's words first when its own
 * words name one (a folder gone, no network), the server's words folded below; while a new attempt runs,
 * the failure is marked as the previous attempt's (a walkthrough saw 安装中 beside a registry error that
 * read as current).
 */
export function ServerFailure(props: { status: ServerStatus; tone: 'bad' | 'warn'; hint?: string; children?: ReactNode }) {
  const { t } = useApp();
  const { status } = props;
  // Trying again now (its timer fired): what is shown failed before this attempt.
  const earlier = status.state === 'restarting' && status.retryAt === undefined;
  const lead = earlier ? t('servers.lastAttempt') : undefined;
  const tone = earlier ? 'warn' : props.tone;
  const cause = status.cause ? callCauseText({ cause: status.cause }, t) : undefined;
  if (!cause)
    return (
      <>
        <ProblemText problem={status.lastErrorCause} text={status.lastError} tone={tone} lead={lead} hint={props.hint} />
        {props.children}
      </>
    );
  const line = status.lastErrorCause?.params.line;
  const said = typeof line === 'string' ? line : (status.lastError ?? '');
  return (
    <div className="problem small" role="status">
      <div className={tone === 'warn' ? 'warn-text' : 'error-text'}>
        {lead ? `${lead}` : null}
        {cause}
      </div>
      {/* What to check (a folder value that is gone), before the server's own words. */}
      {props.children}
      <details className="own-words">
        <summary>{t('servers.ownWords')}</summary>
        <pre className="mono small">{said}</pre>
      </details>
    </div>
  );
}

/** While it waits to try again by itself: when, counted down. */
export function NextTry({ at }: { at: number }) {
  const { t } = useApp();
  const now = useNow(1000);
  return <div className="small muted">{t('servers.nextTry', { seconds: Math.max(0, Math.ceil((at - now) / 1000)) })}</div>;
}
