import type { Translate } from '../../shared/i18n/translate';
import type { ServedSummary } from '../../shared/served';

/**
 * How xiaozhi is served its tools, in one sentence a person reads without knowing what a page,
 * a byte budget or a router is: the numbers are behind "details".
 */
export function servingSentence(served: ServedSummary, t: Translate): string {
  if (served.mode === 'router') return t(served.chosen === 'router' ? 'plain.serving.search' : 'plain.serving.autoSearch');
  return t(served.chosen === 'all' ? 'plain.serving.all' : 'plain.serving.autoAll', { count: served.toolCount });
}
