import { z } from 'zod';

/**
 * Words a model says on its own when it means "yes", and those it would guess first: a PIN that is
 * one of them would be no proof that a person spoke (compared without case, spaces or punctuation).
 */
const TOO_COMMON = new Set([
  'yes',
  'yeah',
  'yep',
  'okay',
  'sure',
  'confirm',
  'confirmed',
  'allow',
  'allowed',
  'approve',
  'approved',
  'agree',
  'correct',
  'right',
  'please',
  'true',
  'pin',
  'code',
  'password',
  '是',
  '是的',
  '好',
  '好的',
  '对',
  '对的',
  '行',
  '可以',
  '同意',
  '确认',
  '确定',
  '允许',
  '批准',
  '没问题',
  '没错',
  '执行',
  '继续',
  '密码',
  '确认码',
  // What a guesser tries first for a spoken password: the assistant's name and greeting, "open sesame", the classic 暗号.
  '小智',
  '你好',
  '你好小智',
  'xiaozhi',
  'hello',
  'secret',
  'letmein',
  'sesame',
  'opensesame',
  '芝麻开门',
  '口令',
  '暗号',
  '确认口令',
  '天王盖地虎',
  '宝塔镇河妖',
]);

/**
 * Digit PINs a guesser tries first, that no rule below catches: 1004 ("angel" in Korean), 2580 and
 * 0852 (a keypad's column), 1314 and 520 (一生一世, 我爱你), 6969, 2000, 2001 and the like.
 */
const COMMON_DIGITS = new Set(['1004', '2580', '0852', '6969', '5201314', '1314520', '7758521', '147258', '159753', '741852', '789456']);

/**
 * A PIN of digits among the first a guesser tries: one digit repeated (0000), a run up or down
 * (1234, 4321, 7890), a group repeated (1212, 123123, 520520), pairs (1122, 112233), a year
 * (1940 to 2039: birthdays), or one of the common ones. A model guesses those first, and a quarter
 * of the four-digit PINs people choose are among them.
 */
export function guessableDigits(digits: string): boolean {
  if (COMMON_DIGITS.has(digits)) return true;
  if (digits.length === 4 && /^(19[4-9]|20[0-3])[0-9]$/.test(digits)) return true;
  const steps = new Set([...digits].slice(1).map((d, i) => (Number(d) - Number(digits[i]) + 10) % 10));
  if (steps.size === 1 && (steps.has(0) || steps.has(1) || steps.has(9))) return true;
  for (let unit = 1; unit <= digits.length / 2; unit++)
    if (digits.length % unit === 0 && digits.slice(0, unit).repeat(digits.length / unit) === digits) return true;
  return digits.length % 2 === 0 && /^(?:([0-9])\1)+$/.test(digits);
}

/** The PIN's letters as compared: lower case, no spaces or punctuation. */
const letters = (pin: string) =>
  pin
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * A confirmation PIN: 4 to 8 digits a guesser would not try first, or one word of letters (2 to 16 Chinese characters, or 4 to 24
 * letters of other scripts) that a model would not say anyway ("yes", 确认).
 */
export function isPin(pin: string): boolean {
  const trimmed = pin.normalize('NFKC').trim();
  if (/^[0-9]{4,8}$/.test(trimmed)) return !guessableDigits(trimmed);
  if (!/^\p{L}+$/u.test(trimmed) || TOO_COMMON.has(letters(trimmed))) return false;
  const han = /^\p{Script=Han}+$/u.test(trimmed);
  return han ? trimmed.length >= 2 && trimmed.length <= 16 : trimmed.length >= 4 && trimmed.length <= 24;
}

export const PIN_RULE =
  'must be 4 to 8 digits, not one a guesser tries first (1234, 0000, 1212, 112233, a year…), or one word (at least 2 Chinese characters or 4 letters) other than yes, confirm, 确认…';

export const PinSchema = z
  .string()
  .trim()
  .refine((pin) => isPin(pin), PIN_RULE);

/** "Ask first" by voice: the person's PIN (spoken, kept as a secret), and whether the window has shown it to them. */
export const ConfirmationSettingsSchema = z.object({
  /** Set by the user in Settings, or made by the app the first time a call asks first. */
  pin: PinSchema.optional(),
  /**
   * false: the app made the PIN and no window (or web page) has shown it yet, so the model tells the person
   * where to find it; true: shown, or set in Settings; absent: written in the config by the user, who knows it.
   */
  pinShown: z.boolean().optional(),
});

export type ConfirmationSettings = z.infer<typeof ConfirmationSettingsSchema>;
