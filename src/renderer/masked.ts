import type { Translate } from '../shared/i18n/translate';
import { MASK_MARKER } from '../shared/masked';

/** A masked value as the window shows it: the engine's marker in the window's language ("…(已隐藏)"). */
export function shownMasked(text: string, t: Translate): string {
  return text.includes(MASK_MARKER) ? text.split(MASK_MARKER).join(t('common.masked')) : text;
}

/**
 * A value shown with the window's marker, edited and sent back: the marker as the engine wrote it,
 * so the engine knows to keep the real value. Strings anywhere in plain data (a server's settings).
 */
export function wireMasked<T>(value: T, t: Translate): T {
  return replaceIn(value, t('common.masked'), MASK_MARKER);
}

/** `shownMasked` for every string of plain data (a server's settings, to fill a form). */
export function shownMaskedIn<T>(value: T, t: Translate): T {
  return replaceIn(value, MASK_MARKER, t('common.masked'));
}

function replaceIn<T>(value: T, from: string, to: string): T {
  if (from === to) return value;
  if (typeof value === 'string') return (value.includes(from) ? value.split(from).join(to) : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => replaceIn(item, from, to)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceIn(v, from, to)])) as T;
  return value;
}
