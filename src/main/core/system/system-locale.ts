import fs from 'node:fs';

import { type Language, resolveLanguage } from '../../../shared/i18n/translate';
import { type UnchosenPreset, unchosenPreset } from '../../../shared/mirrors';

/**
 * The system's language for a bridge whose settings say "system": the POSIX variables a terminal
 * and a service unit set (LC_ALL, LC_MESSAGES, LANG), else what the JavaScript runtime reports.
 * Outside Windows the runtime reads those same variables, so where they name none its answer is
 * en-US: said without asking Intl, whose first answer loads ICU's data (8 MB of an idle bridge).
 */
export function systemLocale(env: NodeJS.ProcessEnv): string | undefined {
  return namedLocale(env) ?? (process.platform === 'win32' ? Intl.DateTimeFormat().resolvedOptions().locale : 'en-US');
}

/**
 * The language the POSIX variables name, or undefined when they name none: unset, `C`, `POSIX` or
 * `C.UTF-8` (a container's, a service unit's), where the runtime's locale is a default, not a choice.
 */
export function namedLocale(env: NodeJS.ProcessEnv): string | undefined {
  const posix = (env.LC_ALL || env.LC_MESSAGES || env.LANG)?.split(/[.@]/)[0];
  return posix && posix !== 'C' && posix !== 'POSIX' ? posix.replace('_', '-') : undefined;
}

/**
 * The system's time zone: TZ when it names one (an IANA name, as a service unit sets it), else the zone
 * /etc/localtime links to (Linux, macOS), else the runtime's. Intl's answer loads ICU's data: 8 MB of an
 * idle bridge's memory, where the link costs nothing (issue 35).
 */
export function systemTimeZone(env: NodeJS.ProcessEnv, localtime = '/etc/localtime'): string | undefined {
  const tz = zoneName(env.TZ?.replace(/^:/, ''));
  if (tz) return tz;
  return linkedZone(localtime) ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const ZONE_NAME = /^[A-Za-z]+(\/[A-Za-z0-9_+-]+)*$/;

/** The zone a name says, without tzdata's posix/ and right/ copies of it (posix/Asia/Shanghai is Asia/Shanghai); none when it names no zone. */
function zoneName(name: string | undefined): string | undefined {
  const zone = name?.replace(/^(?:posix|right)\//, '');
  return zone && ZONE_NAME.test(zone) ? zone : undefined;
}

/** The zone a localtime link names (…/zoneinfo/Asia/Shanghai); none when it is a copy, absent, or names no zone. */
function linkedZone(localtime: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    return zoneName(/\/zoneinfo\/(.+)$/.exec(fs.readlinkSync(localtime))?.[1]);
  } catch {
    return undefined;
  }
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

/** The download sources used while the user has chosen none: the window's language, the locale's region and the time zone say China or not. */
export function placePreset(uiLanguage: 'system' | Language, place: Place): UnchosenPreset {
  return unchosenPreset(resolveLanguage(uiLanguage, place.locale), place.locale, place.timeZone);
}
