import { en } from './en';
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

/** `{name}` placeholders are replaced from `params`. */
export function translate(language: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = catalogs[language][key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(language: Language): Translate {
  return (key, params) => translate(language, key, params);
}
