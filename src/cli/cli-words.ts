import type { Language, Translate } from '../shared/i18n/translate';
import { MASK_MARKER } from '../shared/masked';
import type { Problem } from '../shared/problem';
import { logHint, logMessage, problemMessage } from '../shared/problem-words';
import type { LogEntry } from '../shared/status';

/** The reader's language and its dictionary (a `CliContext` is one). */
export interface Words {
  language: Language;
  t: Translate;
}

/**
 * A failure for the reader, then what to do about it: in English, the engine's own text (which names
 * more than a code can); otherwise its problem worded as the window words it.
 */
export function failureText(words: Words, problem: Problem | undefined, english: string): string {
  const worded = problemMessage(words.t, problem, undefined);
  const message = words.language === 'en' ? english : (worded?.message ?? english);
  return worded?.hint ? words.t('cli.failure.withHint', { message, hint: worded.hint }) : message;
}

/** A log line's message in the reader's language (English: as the engine wrote it), and what to do when it reports a failure. */
export function logLineText(words: Words, entry: Pick<LogEntry, 'level' | 'message' | 'problem' | 'cause'>): string {
  // A masked secret is said as the window says it ("…（已隐藏）").
  const message = words.language === 'en' ? entry.message : logMessage(words.t, entry).replaceAll(MASK_MARKER, words.t('common.masked'));
  const hint = entry.level === 'warn' || entry.level === 'error' ? logHint(words.t, entry) : undefined;
  return hint ? `${message}${words.t('cli.log.hint', { hint })}` : message;
}
