import { describe, expect, it } from 'vitest';
import { defaultSettings, SettingsSchema } from '../../../../src/shared/settings';
import { redactSettings, secretValues } from '../../../../src/main/core/secrets/bridge-secrets';
import { isPin } from '../../../../src/shared/confirmation-pin';
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
    ['1234', true],
    ['12345678', true],
    ['123', false],
    ['123456789', false],
    ['芝麻开门', true],
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

  it('a PIN a model would say anyway is refused, saying what a PIN must be', async () => {
    const { bridge } = makeBridge({});
    await expect(bridge.api.setConfirmationPin({ pin: '确认' })).rejects.toThrow(/4 to 8 digits, or one word/);
    await bridge.api.setConfirmationPin({ pin: ' 0420 ' });
    expect(await bridge.api.revealConfirmationPin()).toEqual({ pin: '0420' });
    await bridge.api.setConfirmationPin({ pin: null });
    expect((await bridge.api.revealConfirmationPin()).pin).toMatch(/^\d{6}$/);
  });
});
