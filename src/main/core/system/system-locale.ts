import { type Language, resolveLanguage } from '../../../shared/i18n/translate';
import { type UnchosenPreset, unchosenPreset } from '../../../shared/mirrors';

/**
 * The system's language for a bridge whose settings say "system": the POSIX variables a terminal
 * and a service unit set (LC_ALL, LC_MESSAGES, LANG), else what the JavaScript runtime reports.
 */
export function systemLocale(env: NodeJS.ProcessEnv): string | undefined {
  const posix = env.LC_ALL || env.LC_MESSAGES || env.LANG;
  if (posix && posix !== 'C' && posix !== 'POSIX') return posix.replace('_', '-').split('.')[0];
  return Intl.DateTimeFormat().resolvedOptions().locale;
}

/** The system's time zone: TZ when it names one (an IANA name, as a service unit sets it), else the runtime's. */
export function systemTimeZone(env: NodeJS.ProcessEnv): string | undefined {
  const tz = env.TZ?.replace(/^:/, '');
  if (tz && /^[A-Za-z]+(\/[A-Za-z_+-]+)*$/.test(tz)) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Where this computer says it is: read once per bridge (Intl's answer costs tens of µs, and a call must not pay it). */
export interface Place {
  locale: string | undefined;
  timeZone: string | undefined;
}

export const placeOf = (env: NodeJS.ProcessEnv, locale?: string): Place => ({
  locale: locale ?? systemLocale(env),
  timeZone: systemTimeZone(env),
});

/** The download sources used while the user has chosen none: the window's language, or the time zone, says China or not. */
export function placePreset(uiLanguage: 'system' | Language, place: Place): UnchosenPreset {
  return unchosenPreset(resolveLanguage(uiLanguage, place.locale), place.timeZone);
}
