import { z } from 'zod';

/**
 * Words a model says on its own when it means "yes": a PIN that is one of them would be no proof
 * that a person spoke (compared without case, spaces or punctuation).
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
]);

/** The PIN's letters as compared: lower case, no spaces or punctuation. */
const letters = (pin: string) =>
  pin
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * A confirmation PIN: 4 to 8 digits, or one word of letters (2 to 16 Chinese characters, or 4 to 24
 * letters of other scripts) that a model would not say anyway ("yes", 确认).
 */
export function isPin(pin: string): boolean {
  const trimmed = pin.normalize('NFKC').trim();
  if (/^[0-9]{4,8}$/.test(trimmed)) return true;
  if (!/^\p{L}+$/u.test(trimmed) || TOO_COMMON.has(letters(trimmed))) return false;
  const han = /^\p{Script=Han}+$/u.test(trimmed);
  return han ? trimmed.length >= 2 && trimmed.length <= 16 : trimmed.length >= 4 && trimmed.length <= 24;
}

export const PIN_RULE = 'must be 4 to 8 digits, or one word (at least 2 Chinese characters or 4 letters) other than yes, confirm, 确认…';

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
