import { describe, expect, it } from 'vitest';

import { redactSettings, secretValues } from '../../../../src/main/core/secrets/bridge-secrets';
import { isPin } from '../../../../src/shared/confirmation-pin';
import { defaultSettings, SettingsSchema } from '../../../../src/shared/settings';
import { makeBridge } from '../../../helpers/bridge-harness';

describe('the confirmation PIN in the settings', () => {
  it('is a secret: redaction knows it, and the settings a UI reads do not carry it, not even masked', () => {
    const settings = { ...defaultSettings(), confirmation: { pin: '731946', pinShown: true } };
    expect(secretValues(settings)).toContain('731946');
    const shown = redactSettings(settings);
    expect(JSON.stringify(shown)).not.toContain('7319');
    expect(shown.confirmation).toEqual({ pinShown: true });
    // What the window gets back still validates (getSettings' own schema).
    expect(SettingsSchema.safeParse(shown).success).toBe(true);
  });

  it.each([
    ['4821', true],
    ['73194652', true],
    ['123', false],
    ['123456789', false],
    ['橘子汽水', true],
    ['确认', false],
    ['同意', false],
    ['Yes', false],
    ['ok', false],
    ['pineapple', true],
    ['pine apple', false],
    ['12ab', false],
  ])('%s is a PIN: %s', (pin, valid) => {
    expect(isPin(pin)).toBe(valid);
  });

  // A model that guesses starts with these: 1234, 0000, 1212 and a year are a quarter of the four-digit PINs people pick.
  it.each([
    '1234',
    '0000',
    '1212',
    '4321',
    '7890',
    '123456',
    '654321',
    '111111',
    '121212',
    '123123',
    '520520',
    '112233',
    '1122',
    '1004',
    '2580',
    '1990',
    '2024',
    '5201314',
    '12345678',
  ])('%s, among the first PINs a guesser tries, is not a PIN', (pin) => {
    expect(isPin(pin)).toBe(false);
    // Written in full-width digits, it is the same PIN.
    expect(isPin(pin.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d))))).toBe(false);
  });

  // The words a model tries first for a spoken password: the assistant's own name and greeting, "open sesame", the classic 暗号.
  it.each(['芝麻开门', '芝麻，开门', 'Open Sesame', '小智', '你好小智', 'xiaozhi', '天王盖地虎', 'letmein'])(
    '%s, a word a guesser tries first, is not a PIN',
    (pin) => {
      expect(isPin(pin)).toBe(false);
    },
  );

  it('a PIN a guesser tries first is refused, saying so', async () => {
    const { bridge } = makeBridge({});
    await expect(bridge.api.setConfirmationPin({ pin: '1234' })).rejects.toThrow(/not one a guesser tries first/);
    expect(SettingsSchema.safeParse({ ...defaultSettings(), confirmation: { pin: '000000' } }).success).toBe(false);
  });

  it('a PIN a model would say anyway is refused, saying what a PIN must be', async () => {
    const { bridge } = makeBridge({});
    await expect(bridge.api.setConfirmationPin({ pin: '确认' })).rejects.toThrow(/4 to 8 digits, .*or one word/);
    await bridge.api.setConfirmationPin({ pin: ' 0420 ' });
    expect(await bridge.api.revealConfirmationPin()).toEqual({ pin: '0420' });
    await bridge.api.setConfirmationPin({ pin: null });
    expect((await bridge.api.revealConfirmationPin()).pin).toMatch(/^\d{6}$/);
  });
});
