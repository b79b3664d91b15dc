import type { Translate } from '../../shared/i18n/translate';
import type { ServedSummary } from '../../shared/served';

/**
 * How xiaozhi is served its tools, in one sentence a person reads without knowing what a page,
 * a byte budget or a router is: the numbers are behind "details".
 */
export function servingSentence(served: ServedSummary, t: Translate): string {
  if (served.mode === 'router') return t(served.chosen === 'router' ? 'plain.serving.search' : 'plain.serving.autoSearch');
  // The user's tools, as the overview counts them: the app's own (confirm, tasks) are not theirs (issue 33).
  const count = userToolsOf(served);
  if (count === 0) return t('names8.serving.none');
  return t(served.chosen === 'all' ? 'plain.serving.all' : 'plain.serving.autoAll', { count });
}

/** The user's tools in an endpoint's set; a summary from an older carrier counts them all. */
export function userToolsOf(served: ServedSummary): number {
  return served.userTools ?? served.toolCount;
}
