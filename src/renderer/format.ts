import type { Language, Translate } from '../shared/i18n/translate';

export function formatBytes(bytes: number): string {
  // A no-break space: "8.0 KB" never breaks between the number and its unit.
  if (bytes < 1024) return `${bytes}\u00a0B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}\u00a0KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)}\u00a0MB`;
}

/** How long a recorded call took; nothing for one that never ran (held, then denied, expired or withdrawn). */
export function callDuration(call: { durationMs: number; confirmation?: { state: string } }, t: Translate): string {
  const state = call.confirmation?.state;
  return state && state !== 'allowed' ? '' : formatDuration(call.durationMs, t);
}

/**
 * How long something took, as a person reads it: seconds from a tenth of one (0.4 秒, 12 秒, 1 分 35 秒),
 * milliseconds below that only because the difference between 5 and 60 matters there, in the window's
 * words (毫秒, not "ms"). Developer tables that need exact ms (bench, logs, stats) do not use this.
 */
export function formatDuration(ms: number, t: Translate): string {
  // Hundredths of a millisecond are noise to a person: under one is said as such.
  if (ms < 1) return t('duration.underOneMs');
  if (ms < 100) return t('duration.ms', { n: String(Math.round(ms)) });
  if (ms < 10_000) return t('duration.seconds', { n: (ms / 1000).toFixed(1) });
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return t('duration.seconds', { n: String(seconds) });
  return t('duration.minutes', { m: String(Math.floor(seconds / 60)), s: String(seconds % 60) });
}

/** "3 min" style, for "connected for". */
export function formatSince(time: number, t: Translate, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - time) / 1000));
  if (s < 60) return t('time.seconds', { n: s });
  if (s < 3600) return t('time.minutes', { n: Math.floor(s / 60) });
  if (s < 86400) return t('time.hours', { n: Math.floor(s / 3600) });
  return t('time.days', { n: Math.floor(s / 86400) });
}

/** Log timestamps: the same fixed, sortable form in every language. */
export function formatClock(time: number): string {
  const d = new Date(time);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

const dateTimes = new Map<string, Intl.DateTimeFormat>();
const cached = (language: Language, kind: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${language}|${kind}`;
  let format = dateTimes.get(key);
  if (!format) dateTimes.set(key, (format = new Intl.DateTimeFormat(language, options)));
  return format;
};

/** A date and time as the language writes it (2025年3月1日 14:05:09, Mar 1, 2025, 2:05:09 PM). */
export function formatDateTime(time: number, language: Language): string {
  return cached(language, 'datetime', { dateStyle: 'medium', timeStyle: 'medium' }).format(time);
}

/** Only the time of day, for today's calls. */
export function formatTime(time: number, language: Language): string {
  return cached(language, 'time', { timeStyle: 'medium' }).format(time);
}

/** "5 minutes ago", "昨天": how long ago, in words of the language. */
export function formatAgo(time: number, language: Language, now = Date.now()): string {
  const seconds = Math.round((time - now) / 1000);
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86400), 'day');
}
