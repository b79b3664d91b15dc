import { type Language, resolveLanguage } from '../../../shared/i18n/translate';
import { type UnchosenPreset, unchosenPreset } from '../../../shared/mirrors';

/**
 * The system's language for a bridge whose settings say "system": the POSIX variables a terminal
 * and a service unit set (LC_ALL, LC_MESSAGES, LANG), else what the JavaScript runtime reports.
 */
export function systemLocale(env: NodeJS.ProcessEnv): string | undefined {
  return namedLocale(env) ?? Intl.DateTimeFormat().resolvedOptions().locale;
}

/**
 * The language the POSIX variables name, or undefined when they name none: unset, `C`, `POSIX` or
 * `C.UTF-8` (a container's, a service unit's), where the runtime's locale is a default, not a choice.
 */
export function namedLocale(env: NodeJS.ProcessEnv): string | undefined {
  const posix = (env.LC_ALL || env.LC_MESSAGES || env.LANG)?.split(/[.@]/)[0];
  return posix && posix !== 'C' && posix !== 'POSIX' ? posix.replace('_', '-') : undefined;
}

/** The system's time zone: TZ when it names one (an IANA name, as a service unit sets it), else the runtime's. */
export function systemTimeZone(env: NodeJS.ProcessEnv): string | undefined {
  const tz = env.TZ?.replace(/^:/, '');
  if (tz && /^[A-Za-z]+(\/[A-Za-z_+-]+)*$/.test(tz)) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The download sources used while the user has chosen none: the window's language, or the time zone, says China or not. */
export function placePreset(
  uiLanguage: 'system' | Language,
  place: { locale?: string | undefined; env: NodeJS.ProcessEnv },
): UnchosenPreset {
  return unchosenPreset(resolveLanguage(uiLanguage, place.locale ?? systemLocale(place.env)), systemTimeZone(place.env));
}
