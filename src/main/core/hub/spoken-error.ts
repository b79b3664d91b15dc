import { hasMessage, translate, type Language } from '../../../shared/i18n/translate';
import type { Problem } from '../../../shared/problem';

/**
 * What xiaozhi's model is told when the bridge itself answers a call with an error: the words are
 * spoken to the user, so a short first sentence in the user's language, the detail after it.
 */
export function spokenError(cause: Problem, language: Language): string {
  // A detail (a server's error, the argument check's) starts a sentence of its own.
  const detail = cause.params.detail;
  const params = typeof detail === 'string' ? { ...cause.params, detail: detail.charAt(0).toUpperCase() + detail.slice(1) } : cause.params;
  const key = cause.code === 'call.unavailable' ? `voice.call.unavailable.${String(cause.params.state)}` : `voice.${cause.code}`;
  const text = hasMessage(key) ? translate(language, key, params) : translate(language, 'voice.call.failed', { detail: '', ...params });
  return text.trim();
}
