import { own } from '../own';
import { en } from './en';
import { formatNumber, pluralCategory } from './plural';
import { zhCN } from './zh-CN';

export type Language = 'zh-CN' | 'en';
export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

const catalogs: Record<Language, Messages> = { en, 'zh-CN': zhCN };

/** Chinese first: most users read it first; any zh locale gets it. */
export function resolveLanguage(setting: 'system' | Language | undefined, systemLocale: string | undefined): Language {
  if (setting === 'zh-CN' || setting === 'en') return setting;
  return !systemLocale || /^zh\b/i.test(systemLocale) ? 'zh-CN' : 'en';
}

/**
 * `{name}` placeholders are replaced from `params`; `{count, plural, one {# call} other {# calls}}`
 * picks the language's plural form (`#` is the number, formatted), as `Intl` would (see `plural.ts`).
 */
export function translate(language: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
  return format(language, catalogs[language][key] ?? en[key], params);
}

/** Whether a dictionary has this key (for codes that come from the engine). */
export function hasMessage(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

function format(language: Language, template: string, params: Record<string, string | number>): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) break;
    out += template.slice(i, open);
    const close = matchingBrace(template, open);
    const inner = template.slice(open + 1, close);
    const plural = /^(\w+),\s*plural,\s*([\s\S]*)$/.exec(inner);
    if (plural) out += pluralForm(language, plural[2] as string, own(params, plural[1] as string));
    else out += Object.hasOwn(params, inner) ? String(params[inner]) : `{${inner}}`;
    i = close + 1;
  }
  return out + template.slice(i);
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return text.length - 1;
}

function pluralForm(language: Language, forms: string, value: string | number | undefined): string {
  const n = Number(value ?? 0);
  const options = new Map<string, string>();
  for (const match of forms.matchAll(/(=?\w+)\s*\{((?:[^{}]|\{[^{}]*\})*)\}/g)) options.set(match[1] as string, match[2] as string);
  const chosen = options.get(`=${n}`) ?? options.get(pluralCategory(language, n)) ?? options.get('other') ?? '';
  return chosen.replace(/#/g, formatNumber(n));
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(language: Language): Translate {
  return (key, params) => translate(language, key, params);
}

/** Sentences said one after another: Chinese runs them on, English puts a space between. Empty ones are left out. */
export function sentences(language: Language, ...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined && part !== '').join(language === 'zh-CN' ? '' : ' ');
}
