import { hasMessage, type Translate } from '../../shared/i18n/translate';
import type { CallRecord } from '../../shared/status';
import { useApp } from '../app-context';
import { shownMasked } from '../masked';

/**
 * A failed call's cause in the person's words ("服务连不上它要用的网站（api.tavily.com）"), said before the
 * service's own text; nothing when the engine named no cause (the raw text is then all there is).
 */
export function callCauseText(record: Pick<CallRecord, 'cause'>, t: Translate): string | undefined {
  const cause = record.cause;
  const key = cause ? `callCause.${cause.code}` : '';
  if (!cause || !hasMessage(key)) return undefined;
  const host = String(cause.params.host ?? '');
  const site = host ? t('callCause.siteNamed', { host }) : t('callCause.site');
  return t(key, { ...cause.params, site });
}

/** The details of a call's result: the cause first when one is known, then the service's own words. */
export function CallResult({ record }: { record: Pick<CallRecord, 'cause' | 'result'> }) {
  const { t } = useApp();
  const cause = callCauseText(record, t);
  return (
    <>
      {cause ? <p className="call-cause">{cause}</p> : null}
      <div className="small muted">{t(cause ? 'history.ownWords' : 'history.result')}</div>
      <pre className="mono small">{shownMasked(withoutCodeFences(record.result), t)}</pre>
    </>
  );
}

/** A Markdown fence line (```diff, ```): the model reads it, a person sees only noise around the text. */
const FENCE_LINE = /^[ \t]*(```|~~~)[^\n]*(\n|$)/gm;

/** A result as a person reads it: its code blocks as plain preformatted text, their fences dropped. */
export function withoutCodeFences(text: string): string {
  return text.replace(FENCE_LINE, '');
}
