import { afterEach, describe, expect, it, vi } from 'vitest';

import { formatNumber, pluralCategory } from '../../src/shared/i18n/plural';
import { type Language, translate } from '../../src/shared/i18n/translate';

const LANGUAGES: Language[] = ['en', 'zh-CN'];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  2,
  -2,
  0.5,
  1.5,
  0.9995,
  0.1234,
  0.0005,
  0.0015,
  1.0005,
  2.675,
  999.9995,
  1000,
  12_345,
  1_234_567.891,
  -1234.5,
  0.1 + 0.2,
  123_456.7899,
  5e-7,
  -0.0004,
  1e15,
  2 ** 53 + 2,
  1e20,
  1e21,
  1e25,
  NaN,
  Infinity,
  -Infinity,
];

describe('plural forms and numbers of our two languages', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes every number as Intl.NumberFormat does for each language', () => {
    for (const language of LANGUAGES)
      for (const n of NUMBERS) expect([language, n, formatNumber(n)]).toEqual([language, n, new Intl.NumberFormat(language).format(n)]);
  });

  it('picks the plural category Intl.PluralRules picks', () => {
    for (const language of LANGUAGES)
      for (const n of NUMBERS.filter(Number.isFinite))
        expect([language, n, pluralCategory(language, n)]).toEqual([language, n, new Intl.PluralRules(language).select(n)]);
  });

  it('words a plural message without Intl (whose locale data would stay resident in a headless bridge)', () => {
    const plural = vi.spyOn(Intl, 'PluralRules');
    const numbers = vi.spyOn(Intl, 'NumberFormat');
    expect(translate('en', 'overview.toolsServed', { count: 1 })).toBe('1 tool served');
    expect(translate('en', 'overview.toolsServed', { count: 1200 })).toBe('1,200 tools served');
    expect(translate('zh-CN', 'overview.toolsServed', { count: 1200 })).toBe('已提供 1,200 个工具');
    expect(plural).not.toHaveBeenCalled();
    expect(numbers).not.toHaveBeenCalled();
  });
});
