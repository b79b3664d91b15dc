import { useState } from 'react';

import type { PendingConfirmation } from '../../shared/confirmations';
import { useApp } from '../app-context';
import { ArgumentList } from './argument-list';
import { ToolLabel } from './tool-label';
import { Button } from './ui';
import { useLiveList } from './use-live-list';
import { useNow } from './use-now';

/**
 * Calls by voice waiting for the user's OK ("ask first" tools): what, with which arguments, who
 * asked, how long it still waits, and Allow / Deny; for one the PIN may confirm, the PIN on request. On every page, below its title, while any waits; the
 * list follows the bridge's `confirmations` event, so nothing is polled.
 */
export function PendingConfirmations() {
  const { store, t, toast, language } = useApp();
  const pending = useLiveList('confirmations', 'getConfirmations');
  const [busy, setBusy] = useState<number | undefined>();
  // The PIN as shown for the calls waiting then: once those are gone it is hidden again (and may have changed since).
  const [revealed, setRevealed] = useState<{ pin: string; keys: number[] } | undefined>();
  const now = useNow();
  const waiting = pending.filter((p) => p.expiresAt > now);
  if (waiting.length === 0) return null;
  const pin = revealed && waiting.some((p) => revealed.keys.includes(p.key)) ? revealed.pin : undefined;

  // The person reads it here to say it to xiaozhi (the model is then no longer told where to find it).
  const showPin = async () => {
    try {
      const { pin: shown } = await store.api.revealConfirmationPin();
      setRevealed({ pin: shown, keys: waiting.map((p) => p.key) });
    } catch (error) {
      toast((error as Error).message, 'error');
    }
  };

  const answer = async (key: number, allow: boolean) => {
    setBusy(key);
    try {
      const out = await store.api.answerConfirmation({ key, allow });
      if (out.outcome === 'gone') toast(t('confirm.gone'), 'error');
      else if (out.outcome === 'denied') toast(t('confirm.denied'));
      else toast(out.task ? t('confirm.allowed', { id: out.task }) : t('confirm.allowedNoTask'));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className="card pending-confirmations" aria-label={t('confirm.title')}>
      <h2>{t('confirm.title')}</h2>
      <ul>
        {waiting.map((p) => {
          // The server's title in another language than the window's (English in a Chinese window): its own words, in the details.
          const foreign = p.title !== p.tool && HAN.test(p.title) !== (language === 'zh-CN');
          return (
            <li key={p.key} data-confirmation={p.key}>
              <div>
                <span className="small muted">{t('confirm.asks', { caller: p.caller })}</span>{' '}
                <strong>{p.said ? p.said[language] : p.title}</strong>
              </div>
              <div className="small muted">
                {/* The tool's own title after, unless the words above already said it or it is not in the window's language. */}
                {p.said && !p.said[language].includes(p.title) && !foreign ? `${p.title} · ` : null}
                <ToolLabel name={p.tool} server={p.server} />
              </div>
              {p.argumentsJson !== undefined ? (
                <ArgumentList
                  json={p.argumentsJson}
                  note={foreign ? <p className="small muted">{t('names9.confirm.serverTitle', { title: p.title })}</p> : undefined}
                />
              ) : p.args.length > 0 ? (
                <dl className="small mono">
                  {p.args.map((arg) => (
                    <div key={arg.name}>
                      <dt>{arg.name}</dt>
                      <dd>{arg.value}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              <div className="pin-line small">
                {p.via === 'window' ? (
                  <span className="muted">{t('confirm.windowOnly')}</span>
                ) : (
                  <>
                    <span className="muted">{t('confirm.byPin')}</span>
                    {pin !== undefined ? (
                      <span>
                        {t('confirm.yourPin')} <span className="mono">{pin}</span>
                      </span>
                    ) : (
                      <Button small onClick={() => void showPin()}>
                        {t('confirm.showPin')}
                      </Button>
                    )}
                  </>
                )}
              </div>
              <div className="card-row">
                <span className="small muted">{t('confirm.timeLeft', { seconds: secondsLeft(p, now) })}</span>
                <span>
                  <Button small kind="primary" disabled={busy === p.key} onClick={() => void answer(p.key, true)}>
                    {t('confirm.allow')}
                  </Button>{' '}
                  <Button small kind="danger" disabled={busy === p.key} onClick={() => void answer(p.key, false)}>
                    {t('confirm.deny')}
                  </Button>
                </span>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const HAN = /\p{Script=Han}/u;

/** Seconds it still waits (the clock this page ticks may be up to a second older than the call). */
function secondsLeft(p: PendingConfirmation, now: number): number {
  return Math.max(0, Math.ceil((p.expiresAt - Math.max(now, p.askedAt)) / 1000));
}
