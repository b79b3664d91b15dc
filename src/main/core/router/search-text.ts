import { stemmer } from 'stemmer';

/**
 * Turns tool text and queries into search terms, the same way for both sides.
 * - Identifiers split on `_`, `-`, `.`, camelCase and digits: `HassTurnOff` → hass turn off,
 *   `get-tickets` → get ticket.
 * - English words are lower-cased and stemmed (Porter), so "reminders" meets "reminder".
 * - Chinese has no spaces: each run of Han characters becomes its character bigrams
 *   (天气预报 → 天气 气预 预报), which match whatever words a query shares with a description
 *   without a dictionary; a lone character stays a term of its own.
 */

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/;
/** Runs of Han characters, and runs of other letters and digits. */
const PIECES = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|(?:(?![\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])[\p{L}\p{N}])+/gu;

/** Words that say nothing about what a tool does (queries are spoken sentences). */
const ENGLISH_STOP = new Set(
  (
    'a an the and or but if then than so of to in on at by for from with about into onto over under as is are was were be been being am ' +
    'do does did done can could would should will shall may might must have has had i me my mine you your yours we our us he she it its they them their ' +
    'this that these those there here what which who whom whose when where why how please some any all just also very really want need like ' +
    'let lets tell give get s t im ive id ill dont doesnt cant wont whats wheres hows thats'
  ).split(' '),
);

/** Chinese function words (as bigrams or single characters) that carry no intent. */
const CHINESE_STOP = new Set(
  '的 了 吗 呢 吧 啊 呀 是 我 你 他 她 它 们 在 和 与 及 把 被 给 帮 请 一下 一个 帮我 给我 我的 你的 我们 什么 怎么 怎样 多少 现在 可以 能不 不能 是不 有没 没有 一些 这个 那个 有什 么样'.split(
    ' ',
  ),
);

/** The parts of one camelCase or letters-and-digits word: `HassTurnOff` → Hass, Turn, Off. */
function camelParts(word: string): string[] {
  return word
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([a-zA-Z])/g, '$1 $2')
    .split(' ');
}

/**
 * Splits an identifier or phrase into words: camelCase, snake_case, kebab-case, dots, digits.
 * A camelCase word also stays whole (`GitHub` → GitHub, Git, Hub), since brands are written both ways.
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.match(PIECES) ?? []) {
    if (HAN_RUN.test(piece)) {
      out.push(piece);
      continue;
    }
    const parts = camelParts(piece);
    if (parts.length > 1) out.push(piece.toLowerCase());
    out.push(...parts);
  }
  return out;
}

/** Where Porter's stem would merge words that mean different things ("news" is not "new"). */
const KEEP_WHOLE = new Set(['news', 'business', 'series', 'species', 'always', 'bus', 'gas', 'plus', 'status', 'canvas', 'alias', 'lens']);

const stemCache = new Map<string, string>();

/** One English word as a term, or undefined for a stop word. */
export function englishTerm(word: string): string | undefined {
  const lower = word.toLowerCase().replace(/'s$/, '');
  if (ENGLISH_STOP.has(lower) || lower.length === 0) return undefined;
  // Short numbers are values (3 o'clock, 24 degrees), not what a tool does; 12306 is a name.
  if (/^[0-9]+$/.test(lower)) return lower.length >= 4 ? lower : undefined;
  if (KEEP_WHOLE.has(lower)) return lower;
  let stem = stemCache.get(lower);
  if (stem === undefined) {
    stem = stemmer(lower);
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(lower, stem);
  }
  return stem;
}

/** The bigrams of a run of Han characters (the character itself when alone). */
export function hanTerms(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return CHINESE_STOP.has(run) ? [] : [run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) {
    const bigram = `${chars[i]}${chars[i + 1]}`;
    if (!CHINESE_STOP.has(bigram)) out.push(bigram);
  }
  return out;
}

/** Every search term of a text, in order (duplicates kept: they count for ranking). */
export function searchTerms(text: string): string[] {
  const out: string[] = [];
  // Apostrophes inside English words ("what's", "wife's") belong to the word.
  for (const piece of splitWords(text.replace(/(\w)['’](\w)/g, '$1$2'))) {
    if (HAN.test(piece)) out.push(...hanTerms(piece));
    else {
      const term = englishTerm(piece);
      if (term) out.push(term);
    }
  }
  return out;
}

export function isHan(text: string): boolean {
  return HAN.test(text);
}
