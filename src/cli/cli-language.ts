import { UsageError } from '../main/core/command-line/args';
import type { Language } from '../shared/i18n/translate';

/**
 * The language the CLI speaks, as the C library picks a message locale: the first of LC_ALL,
 * LC_MESSAGES and LANG that is set decides; zh… is 简体中文, anything else (C, POSIX, en_US…) English.
 */
export function localeLanguage(env: NodeJS.ProcessEnv): Language {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const) {
    const value = env[name];
    if (value) return /^zh/i.test(value) ? 'zh-CN' : 'en';
  }
  return 'en';
}

const LANGUAGES: ReadonlyMap<string, Language> = new Map([
  ['en', 'en'],
  ['zh', 'zh-CN'],
  ['zh-cn', 'zh-CN'],
]);

/** `--lang en|zh-CN` anywhere before `--`, taken out of the command line (every command accepts it). */
export function takeLanguageFlag(argv: string[]): { argv: string[]; language?: Language } {
  const rest: string[] = [];
  let language: Language | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg !== '--lang' && !arg.startsWith('--lang=')) {
      rest.push(arg);
      continue;
    }
    const value = arg === '--lang' ? argv[++i] : arg.slice('--lang='.length);
    const chosen = value === undefined ? undefined : LANGUAGES.get(value.toLowerCase());
    if (!chosen) throw UsageError.of('cli.usage.badLang', { value: value ?? '' });
    language = chosen;
  }
  return { argv: rest, ...(language ? { language } : {}) };
}
