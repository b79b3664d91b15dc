import type { Language } from './translate';

/*
 * The plural forms and number format of our two languages, without `Intl`: its first
 * `PluralRules` or `NumberFormat` maps ICU's locale data, which stays resident (4 MB of a
 * headless bridge's memory for one plural in one log line). CLDR's rules for these two are small:
 * Chinese has one form; English says "one" for 1 and -1 and "other" for anything else.
 */

/** CLDR's plural category of `n` (only the two our dictionaries use). */
export function pluralCategory(language: Language, n: number): 'one' | 'other' {
  // As Intl does, on the number as it is written (0.9995 is written 1).
  return language === 'en' && /^-?1$/.test(formatNumber(n)) ? 'one' : 'other';
}

/**
 * `n` as `Intl.NumberFormat` writes it for en and zh-CN by default: thousands grouped with commas,
 * at most 3 decimals, the shortest decimal form of the double rounded half away from zero.
 */
export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  const abs = Math.abs(n);
  if (abs === Number.POSITIVE_INFINITY) return `${sign}∞`;
  const [whole, decimals] = Number.isInteger(abs) ? [wholeDigits(abs), ''] : roundedDecimals(abs);
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${decimals ? `.${decimals}` : ''}`;
}

/** An integer's digits, from its shortest decimal form (1e25 is a 1 and 25 zeros, as Intl writes it). */
function wholeDigits(abs: number): string {
  const [mantissa = '0', exponent] = abs.toString().split('e+');
  if (exponent === undefined) return mantissa;
  const digits = mantissa.replace('.', '');
  return digits.padEnd(Number(exponent) + 1, '0');
}

/** A fraction's whole part and up to 3 decimals (trailing zeros dropped), rounded on its shortest decimal form. */
function roundedDecimals(abs: number): [string, string] {
  const text = abs.toString();
  // Below 1e-6 JavaScript writes an exponent; such a number rounds to 0 at 3 decimals.
  if (text.includes('e')) return ['0', ''];
  const [whole = '0', fraction = ''] = text.split('.');
  const kept = BigInt(`${whole}${fraction.slice(0, 3).padEnd(3, '0')}`) + (Number(fraction[3] ?? '0') >= 5 ? 1n : 0n);
  const digits = kept.toString().padStart(4, '0');
  return [digits.slice(0, -3), digits.slice(-3).replace(/0+$/, '')];
}
