import { z } from 'zod';

import { own } from './own';

/**
 * Where packages (npm, PyPI) and runtimes (Node.js, uv) come from: the official sites, a preset of
 * mirrors in mainland China (where the official ones are slow or unreachable), or the user's own.
 * Until the user chooses, the place decides (`unchosenPreset`): the mainland China mirrors for a
 * Chinese window (but in Taiwan, Hong Kong or Macau) or a China time zone, else the official sites (children then see no mirror variable
 * of ours, only their own configuration). The user's choice, once made, always wins.
 */

/** Whether `value` may be downloaded from: https, or http only on this machine (a local mirror or a test's stand-in); no user name or password. */
export function isDownloadUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.username || url.password) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
  } catch {
    return false;
  }
}

/** A download source (or update feed), as `isDownloadUrl` allows. */
export const DownloadUrlSchema = z.string().trim().refine(isDownloadUrl, 'must be an https:// URL, without a user name or password');

/** What the window checks as the user types (the schema has the last word). */
export const DOWNLOAD_URL_SHAPE = /^(https:\/\/|http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/])/i;

export const MIRROR_PRESETS = ['default', 'china', 'custom'] as const;
export type MirrorPreset = (typeof MIRROR_PRESETS)[number];

/**
 * The sources one can set: each is a base URL. uv comes from its releases (`uvDownload`, laid out
 * as GitHub's), or, when `uvIndex` is set, as its wheel from that PyPI index (which wins).
 */
export const MIRROR_KEYS = ['npmRegistry', 'pypiIndex', 'nodeDist', 'uvDownload', 'uvIndex', 'pythonInstall'] as const;
export type MirrorKey = (typeof MIRROR_KEYS)[number];
export type MirrorUrls = Partial<Record<MirrorKey, string>>;

export const MirrorSettingsSchema = z.object({
  /** Absent: the user has not chosen (`unchosenPreset` says which applies). */
  preset: z.enum(MIRROR_PRESETS).optional(),
  /** The user's own sources (read with the "custom" preset only; an empty one stays official). */
  npmRegistry: DownloadUrlSchema.optional(),
  pypiIndex: DownloadUrlSchema.optional(),
  nodeDist: DownloadUrlSchema.optional(),
  uvDownload: DownloadUrlSchema.optional(),
  uvIndex: DownloadUrlSchema.optional(),
  pythonInstall: DownloadUrlSchema.optional(),
});
export type MirrorSettings = z.infer<typeof MirrorSettingsSchema>;

/** The official sources the app's own downloads use when no mirror says otherwise. */
export const OFFICIAL_SOURCES: Required<Pick<MirrorUrls, 'nodeDist' | 'uvDownload'>> = {
  nodeDist: 'https://nodejs.org/dist/',
  uvDownload: 'https://github.com/astral-sh/uv/releases/download/',
};

/**
 * Mirrors in mainland China. No mirror of uv's GitHub releases could be confirmed, so uv comes as
 * its wheel from Tsinghua's PyPI mirror (PyPI publishes uv's programs as wheels); npmmirror mirrors
 * nodejs.org/dist, and python-build-standalone, which uv installs Python from.
 */
export const CHINA_MIRRORS: MirrorUrls = {
  npmRegistry: 'https://registry.npmmirror.com/',
  pypiIndex: 'https://pypi.tuna.tsinghua.edu.cn/simple',
  nodeDist: 'https://registry.npmmirror.com/-/binary/node/',
  uvIndex: 'https://pypi.tuna.tsinghua.edu.cn/simple',
  pythonInstall: 'https://registry.npmmirror.com/-/binary/python-build-standalone/',
};

/** Other mirrors in mainland China the advice names, for when the preset's keep failing (used with "custom"). */
export const CHINA_ALTERNATIVES = {
  uvIndex: 'https://mirrors.aliyun.com/pypi/simple/',
  nodeDist: 'https://mirrors.tuna.tsinghua.edu.cn/nodejs-release/',
} as const;

/**
 * Which advice fits what came (or would come) from `base`, a source in use (none: the official one):
 * the official sources (try the mainland China mirrors), those mirrors (try others there), or the
 * user's own (check them).
 */
export type SourceAdvice = 'official' | 'china' | 'custom';

export function sourceAdvice(base: string | undefined): SourceAdvice {
  if (!base) return 'official';
  return Object.values(CHINA_MIRRORS).includes(base) ? 'china' : 'custom';
}

/** The preset used while the user has chosen none: decided by the place, never saved. */
export type UnchosenPreset = Exclude<MirrorPreset, 'custom'>;

/**
 * Time zones of mainland China (the IANA names and their old aliases): there GitHub and nodejs.org
 * are often out of reach. Hong Kong, Macau and Taiwan reach them, so they are not listed.
 */
const CHINA_TIME_ZONES = new Set([
  'Asia/Shanghai',
  'Asia/Chongqing',
  'Asia/Chungking',
  'Asia/Harbin',
  'Asia/Urumqi',
  'Asia/Kashgar',
  'PRC',
]);

/** Time zones of Hong Kong, Macau and Taiwan (and their old aliases): a Chinese window there reaches the official sites. */
const OUTSIDE_MAINLAND_TIME_ZONES = new Set(['Asia/Hong_Kong', 'Hongkong', 'Asia/Macau', 'Asia/Macao', 'Asia/Taipei', 'ROC']);

/**
 * Whether a locale is the Chinese of Taiwan, Hong Kong or Macau (zh-TW, zh-HK, zh-MO, zh-Hant-…): the
 * window shows them the one Chinese dictionary (zh-CN), but they reach the official sites. Read from
 * the tags, without Intl.Locale (whose first use loads ICU's data).
 */
function chineseOutsideMainland(locale: string): boolean {
  const [language, ...tags] = locale.split(/[-_]/);
  return language?.toLowerCase() === 'zh' && tags.some((tag) => /^(hant|tw|hk|mo)$/i.test(tag));
}

/**
 * Which sources apply until the user chooses: the mainland China mirrors in a China time zone, else
 * for a Chinese window, unless the system's locale or its time zone says Taiwan, Hong Kong or Macau.
 * 简体中文 chosen in Settings on such a system is the only Chinese there is, not a move: the place still
 * decides.
 */
export function unchosenPreset(language: 'zh-CN' | 'en', locale: string | undefined, timeZone: string | undefined): UnchosenPreset {
  if (timeZone !== undefined && CHINA_TIME_ZONES.has(timeZone)) return 'china';
  if (language !== 'zh-CN') return 'default';
  const outside =
    (locale !== undefined && chineseOutsideMainland(locale)) || (timeZone !== undefined && OUTSIDE_MAINLAND_TIME_ZONES.has(timeZone));
  return outside ? 'default' : 'china';
}

/** The preset in use: the user's, else the one the place decided. */
export function presetInUse(settings: MirrorSettings, unchosen: UnchosenPreset): MirrorPreset {
  return settings.preset ?? unchosen;
}

/** The sources in use (official ones left out): the user's choice, else `unchosen`'s. */
export function mirrorUrls(settings: MirrorSettings, unchosen: UnchosenPreset): MirrorUrls {
  const preset = presetInUse(settings, unchosen);
  if (preset === 'china') return { ...CHINA_MIRRORS };
  if (preset === 'default') return {};
  const urls: MirrorUrls = {};
  for (const key of MIRROR_KEYS) if (settings[key]) urls[key] = settings[key];
  return urls;
}

/**
 * The variables that point a child's package runners at the chosen sources: npm/npx read
 * npm_config_registry; uv reads UV_DEFAULT_INDEX (and UV_INDEX_URL, its older name, for older
 * versions) and UV_PYTHON_INSTALL_MIRROR; pip reads PIP_INDEX_URL.
 */
/** The variables that point a package runner at each source (npm reads its own in either case). */
const SOURCE_VARIABLES: Partial<Record<MirrorKey, readonly string[]>> = {
  npmRegistry: ['npm_config_registry', 'NPM_CONFIG_REGISTRY'],
  pypiIndex: ['UV_DEFAULT_INDEX', 'UV_INDEX_URL', 'PIP_INDEX_URL'],
  pythonInstall: ['UV_PYTHON_INSTALL_MIRROR'],
};

/**
 * The sources the place decided, less those the environment already names: a user who set
 * `npm_config_registry` or `UV_INDEX_URL` chose outside the app, and a guess must not override it.
 */
export function unnamedSources(urls: MirrorUrls, env: Record<string, string | undefined>): MirrorUrls {
  const kept: MirrorUrls = {};
  for (const key of MIRROR_KEYS) if (urls[key] && !SOURCE_VARIABLES[key]?.some((name) => own(env, name))) kept[key] = urls[key];
  return kept;
}

export function mirrorEnv(urls: MirrorUrls): Record<string, string> {
  const env: Record<string, string> = {};
  if (urls.npmRegistry) env.npm_config_registry = urls.npmRegistry;
  if (urls.pypiIndex) {
    env.UV_DEFAULT_INDEX = urls.pypiIndex;
    env.UV_INDEX_URL = urls.pypiIndex;
    env.PIP_INDEX_URL = urls.pypiIndex;
  }
  if (urls.pythonInstall) env.UV_PYTHON_INSTALL_MIRROR = urls.pythonInstall;
  return env;
}
