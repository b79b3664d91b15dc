import { useState } from 'react';

import { isPin } from '../../shared/confirmation-pin';
import { useApp } from '../app-context';
import { Button, Field } from '../components/ui';
import { useCommand } from '../components/use-command';

/** Dots for a PIN not shown: the same whatever its length (its length is part of the secret). */
export const HIDDEN_PIN = '••••••';

/**
 * Settings → Voice confirmation: the person's PIN, which "ask first" tools wait for by voice. Hidden
 * until asked for (the app may have made it: then it is shown here first), changed, or made anew.
 * The window learns it only by asking; settings never carry it.
 */
export function ConfirmationSettings() {
  const { store, t, toast } = useApp();
  const run = useCommand();
  const [shown, setShown] = useState<string | undefined>();
  const [typed, setTyped] = useState('');
  const error = typed.trim() !== '' && !isPin(typed) ? t('pin.rule') : undefined;

  const reveal = async () => {
    if (shown !== undefined) return setShown(undefined);
    await run(async () => setShown((await store.api.revealConfirmationPin()).pin));
  };
  const save = async (pin: string | null) => {
    const ok = await run(() => store.api.setConfirmationPin({ pin }));
    if (!ok) return;
    setTyped('');
    toast(t(pin === null ? 'pin.made' : 'pin.saved'));
    // What it is now, shown at once: a new one is no use unless the person sees it.
    setShown(pin === null ? (await store.api.revealConfirmationPin()).pin : undefined);
  };

  return (
    <section className="panel form" aria-labelledby="pin-title">
      <h2 id="pin-title">{t('pin.title')}</h2>
      <p className="small muted">{t('pin.intro')}</p>
      <div className="field">
        <span className="label-like">{t('pin.label')}</span>
        <div className="input-with-button">
          <output className="pin-shown mono" aria-live="polite" data-pin-shown={shown !== undefined}>
            {shown ?? HIDDEN_PIN}
          </output>
          <Button small onClick={() => void reveal()}>
            {shown !== undefined ? t('common.hide') : t('common.show')}
          </Button>
          <Button small onClick={() => void save(null)}>
            {t('pin.make')}
          </Button>
        </div>
      </div>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim() !== '' && !error) void save(typed.trim());
        }}
      >
        <Field label={t('pin.own')} error={error} hint={t('pin.rule')}>
          {(id) => (
            <div className="input-with-button">
              <input
                id={id}
                className="mono"
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
              <Button kind="primary" type="submit" disabled={typed.trim() === '' || Boolean(error)}>
                {t('common.save')}
              </Button>
            </div>
          )}
        </Field>
      </form>
      <p className="small muted">{t('pin.policies')}</p>
    </section>
  );
}
