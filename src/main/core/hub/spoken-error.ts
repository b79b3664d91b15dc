import { hasMessage, type Language, translate } from '../../../shared/i18n/translate';
import type { Problem } from '../../../shared/problem';

/** A server's title in a language when it came from the catalogue (`VoiceGuard.serverTitle`, as confirmations say it). */
export type ServerTitle = (server: string, language: Language) => string | undefined;

/**
 * What xiaozhi's model is told when the bridge itself answers a call with an error: the words are
 * spoken to the user, so a short first sentence in the user's language, the detail after it. A
 * server is named as the window names it (本机文件, not filesystem); the problem keeps its own name.
 */
export function spokenError(cause: Problem, language: Language, serverTitle?: ServerTitle): string {
  // A detail (a server's error, the argument check's) starts a sentence of its own.
  const detail = cause.params.detail;
  const server = cause.params.server;
  const title = typeof server === 'string' ? serverTitle?.(server, language) : undefined;
  const params = {
    ...cause.params,
    ...(typeof detail === 'string' ? { detail: detail.charAt(0).toUpperCase() + detail.slice(1) } : {}),
    ...(title ? { server: title } : {}),
  };
  const key = cause.code === 'call.unavailable' ? `voice.call.unavailable.${String(cause.params.state)}` : `voice.${cause.code}`;
  const text = hasMessage(key) ? translate(language, key, params) : translate(language, 'voice.call.failed', { detail: '', ...params });
  return text.trim();
}

/**
 * A web service's failure as the model hears it: in English its own sentence (the platform's
 * message kept), in another language the problem worded there, so a Chinese user is not read
 * English.
 */
export function spokenServiceError(tool: string, error: { message: string; problem: Problem }, language: Language): string {
  const key = `problem.${error.problem.code}`;
  if (language !== 'en' && hasMessage(key)) {
    const detail = translate(language, key, error.problem.params).trim();
    return translate(language, 'voice.service.failed', { tool, detail: /[.!?。！？]$/.test(detail) ? detail : `${detail}。` });
  }
  const said = /[.!?。！？]$/.test(error.message) ? error.message : `${error.message}.`;
  return `The tool "${tool}" failed: ${said}`;
}
