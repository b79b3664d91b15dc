import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

import { isPin } from '../../../../shared/confirmation-pin';

/** Where a person reads the PIN the app made for them: the desktop window, the headless web page, the config file. */
export type PinPlace = 'window' | 'webPage' | 'configFile';

/** Digits as speech recognition may write them: Chinese numerals (幺 and 两 as said aloud) and English words. */
const CHINESE_DIGITS: ReadonlyMap<string, string> = new Map([
  ['零', '0'],
  ['〇', '0'],
  ['洞', '0'],
  ['一', '1'],
  ['幺', '1'],
  ['二', '2'],
  ['两', '2'],
  ['三', '3'],
  ['四', '4'],
  ['五', '5'],
  ['六', '6'],
  ['七', '7'],
  ['八', '8'],
  ['九', '9'],
]);
const ENGLISH_DIGITS = /\b(zero|oh|one|two|three|four|five|six|seven|eight|nine)\b/g;
const ENGLISH_VALUES: ReadonlyMap<string, string> = new Map([
  ['zero', '0'],
  ['oh', '0'],
  ['one', '1'],
  ['two', '2'],
  ['three', '3'],
  ['four', '4'],
  ['five', '5'],
  ['six', '6'],
  ['seven', '7'],
  ['eight', '8'],
  ['nine', '9'],
]);

/** What was said, as text: a model may pass the number 4821 or "4 8 2 1". */
function saidText(said: unknown): string {
  if (typeof said === 'number' && Number.isFinite(said)) return String(said);
  return typeof said === 'string' ? said.slice(0, 200) : '';
}

/**
 * What a person said, in the form its PIN is kept: for a PIN of digits, the digits heard (「四八二一」,
 * "four eight two one", "48 21", full-width "４８２１"); for a word, its letters, lower case, without
 * spaces or punctuation.
 */
export function spokenPin(said: unknown, digits: boolean): string {
  const text = saidText(said).normalize('NFKC').toLowerCase();
  if (!digits) return text.replace(/[^\p{L}\p{N}]/gu, '');
  const words = text.replace(ENGLISH_DIGITS, (word) => ENGLISH_VALUES.get(word) ?? word);
  return [...words]
    .map((char) => CHINESE_DIGITS.get(char) ?? char)
    .join('')
    .replace(/[^0-9]/g, '');
}

/** The PIN as kept, in the same form as `spokenPin` makes of what is said. */
export function keptPin(pin: string): string {
  return spokenPin(pin, /^[0-9]+$/.test(pin.normalize('NFKC').trim()));
}

/** Whether what was said is the PIN; the comparison takes the same time whatever matches. */
export function pinMatches(pin: string, said: unknown): boolean {
  if (!isPin(pin)) return false;
  const kept = keptPin(pin);
  const heard = spokenPin(said, /^[0-9]+$/.test(kept));
  // Hashes of both: equal lengths for timingSafeEqual, whatever was said.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return heard.length > 0 && timingSafeEqual(digest(kept), digest(heard));
}

/** A PIN the app makes when the user set none: six digits, easy to say, a million to guess (none a guesser tries first). */
export function newPin(): string {
  for (;;) {
    const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
    if (isPin(pin)) return pin;
  }
}

/** Wrong PINs a voice session may say before its held calls are cancelled (a person mishears; a model guesses on). */
export const MAX_WRONG_PINS = 5;
/** Wrong PINs across every session before voice confirmation waits: a model that starts a new conversation per guess. */
export const MAX_WRONG_PINS_OVERALL = 20;
/** One wrong PIN is forgotten per this long: a person who misheard this morning starts afresh in the afternoon. */
export const WRONG_PIN_DECAY_MS = 10 * 60_000;
/** Sessions whose wrong PINs are counted at once (the oldest forgotten first). */
const MAX_COUNTED_SESSIONS = 256;

/** A count that leaks away one unit per `decayMs`. */
interface Bucket {
  level: number;
  at: number;
}

/**
 * Wrong PINs, counted per voice session (a device's conversation, even behind the self-hosted relay
 * where every device shares one connection) and across all of them, each count leaking away with time.
 */
export class WrongPins {
  private readonly sessions = new Map<string, Bucket>();
  private overall: Bucket = { level: 0, at: 0 };

  constructor(
    private readonly now: () => number = Date.now,
    private readonly decayMs = WRONG_PIN_DECAY_MS,
  ) {}

  /** Too many wrong PINs lately, in this session or overall: voice cannot confirm now (the window still can). */
  locked(session: string): boolean {
    const now = this.now();
    return (
      this.level(this.sessions.get(session), now).level >= MAX_WRONG_PINS || this.level(this.overall, now).level >= MAX_WRONG_PINS_OVERALL
    );
  }

  /** A wrong PIN: true when this one reached the bound (the caller cancels what the session holds). */
  add(session: string): boolean {
    const now = this.now();
    const mine = this.level(this.sessions.get(session), now);
    this.sessions.delete(session);
    this.sessions.set(session, { level: mine.level + 1, at: mine.at });
    while (this.sessions.size > MAX_COUNTED_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    const all = this.level(this.overall, now);
    this.overall = { level: all.level + 1, at: all.at };
    return mine.level + 1 >= MAX_WRONG_PINS || this.overall.level >= MAX_WRONG_PINS_OVERALL;
  }

  /** Minutes until voice may confirm again in this session (at least 1). */
  minutesLeft(session: string): number {
    const now = this.now();
    const wait = (bucket: Bucket, bound: number) =>
      bucket.level < bound ? 0 : (bucket.level - bound) * this.decayMs + (this.decayMs - (now - bucket.at));
    const ms = Math.max(
      wait(this.level(this.sessions.get(session), now), MAX_WRONG_PINS),
      wait(this.level(this.overall, now), MAX_WRONG_PINS_OVERALL),
    );
    return Math.max(1, Math.ceil(ms / 60_000));
  }

  clear(): void {
    this.sessions.clear();
    this.overall = { level: 0, at: 0 };
  }

  /** The bucket as it is now: one wrong PIN gone per whole `decayMs` since it was last counted down. */
  private level(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket || bucket.level === 0) return { level: 0, at: now };
    const gone = Math.floor(Math.max(0, now - bucket.at) / this.decayMs);
    return gone >= bucket.level ? { level: 0, at: now } : { level: bucket.level - gone, at: bucket.at + gone * this.decayMs };
  }
}

/**
 * A result sent to a voice session, with the PIN hidden wherever it stands whole (a tool that read
 * the config file, a page that quotes it): a model that read it in any answer could confirm by itself.
 * A tool that spells or encodes it gets past this; the README says so.
 */
export function withoutPin<T extends { content?: unknown; error?: unknown }>(result: T, pin: string | undefined): T {
  const hidden = pinHider(pin);
  if (!hidden) return result;
  const content = Array.isArray(result.content)
    ? result.content.map((item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        (item as { type?: unknown }).type === 'text' &&
        typeof (item as { text?: unknown }).text === 'string'
          ? { ...item, text: hidden((item as { text: string }).text) }
          : item,
      )
    : result.content;
  return { ...result, content, ...(typeof result.error === 'string' ? { error: hidden(result.error) } : {}) };
}

/** What hides the PIN wherever it stands whole in a text (a server's question quoting a file too); undefined without a PIN. */
export function pinHider(pin: string | undefined): ((text: string) => string) | undefined {
  if (pin === undefined || !isPin(pin)) return undefined;
  const kept = pin.normalize('NFKC').trim();
  const escaped = kept.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = /^[0-9]+$/.test(kept) ? new RegExp(`(?<![0-9])${escaped}(?![0-9])`, 'g') : new RegExp(escaped, 'giu');
  // Found in the text as read (full-width digits are digits), hidden in the text as it is: the rest keeps
  // its own characters (an answer's "，" and "…" are not made "," and "...").
  return (text: string) => {
    const chars = [...text];
    let plain = '';
    const from: number[] = [];
    chars.forEach((char, at) => {
      const read = char.normalize('NFKC');
      for (let unit = 0; unit < read.length; unit++) from.push(at);
      plain += read;
    });
    pattern.lastIndex = 0;
    if (!pattern.test(plain)) return text;
    pattern.lastIndex = 0;
    const hide = new Set<number>();
    for (const found of plain.matchAll(pattern))
      for (let unit = found.index; unit < found.index + found[0].length; unit++) hide.add(from[unit] as number);
    return chars.map((char, at) => (hide.has(at) ? '*' : char)).join('');
  };
}
