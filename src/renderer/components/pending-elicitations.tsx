import { useState } from 'react';

import type { ElicitField, ElicitValue, PendingElicitation } from '../../shared/elicitations';
import { own } from '../../shared/own';
import { useApp } from '../app-context';
import { Button, Field } from './ui';
import { useLiveList } from './use-live-list';
import { useNow } from './use-now';

/** What a field's input holds, as the server's schema wants it: a number for a number, a boolean for a box. */
function valueOf(field: ElicitField, text: string | boolean | undefined): ElicitValue | undefined {
  if (field.type === 'boolean') return text === true;
  if (text === undefined || text === '' || typeof text === 'boolean') return undefined;
  return field.type === 'string' ? text : Number(text);
}

/** One question: the server's message, its fields, Send and Decline. */
function ElicitationForm({ question, now }: { question: PendingElicitation; now: number }) {
  const { store, t, toast } = useApp();
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [busy, setBusy] = useState(false);
  const answer = async (action: 'accept' | 'decline') => {
    setBusy(true);
    try {
      // Keyed by the server's field names: own entries only, sent as own properties.
      const content = Object.fromEntries(
        question.fields.flatMap((field) => {
          const value = valueOf(field, own(values, field.name));
          return value === undefined ? [] : [[field.name, value] as [string, ElicitValue]];
        }),
      );
      const waiting = await store.api.answerElicitation({ key: question.key, action, ...(action === 'accept' ? { content } : {}) });
      if (!waiting) toast(t('confirm.gone'), 'error');
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  const seconds = Math.max(0, Math.ceil((question.expiresAt - Math.max(now, question.askedAt)) / 1000));
  return (
    <li data-elicitation={question.key}>
      <div>
        <span className="small muted">{t('elicit.asks', { server: question.server })}</span> <strong>{question.message}</strong>
      </div>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void answer('accept');
        }}
      >
        {question.fields.map((field) => {
          const label = field.title ?? field.name;
          const set = (value: string | boolean) => setValues((current) => ({ ...current, [field.name]: value }));
          if (field.type === 'boolean')
            return (
              <label key={field.name} className="check">
                <input type="checkbox" checked={own(values, field.name) === true} onChange={(e) => set(e.target.checked)} /> {label}
              </label>
            );
          return (
            <Field key={field.name} label={label} {...(field.description ? { hint: field.description } : {})}>
              {(id) =>
                field.choices ? (
                  <select id={id} value={String(own(values, field.name) ?? '')} onChange={(e) => set(e.target.value)}>
                    <option value="" />
                    {field.choices.map((choice) => (
                      <option key={choice} value={choice}>
                        {choice}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={id}
                    type={field.type === 'string' ? 'text' : 'number'}
                    step={field.type === 'integer' ? 1 : 'any'}
                    value={String(own(values, field.name) ?? '')}
                    onChange={(e) => set(e.target.value)}
                  />
                )
              }
            </Field>
          );
        })}
        <div className="card-row">
          <span className="small muted">{t('confirm.timeLeft', { seconds })}</span>
          <span>
            <Button small kind="primary" type="submit" disabled={busy}>
              {t('elicit.send')}
            </Button>{' '}
            <Button small kind="danger" disabled={busy} onClick={() => void answer('decline')}>
              {t('elicit.decline')}
            </Button>
          </span>
        </div>
      </form>
    </li>
  );
}

/**
 * A server's questions during a call (MCP elicitation): the form it sent, answered here or declined.
 * On every page while any waits; unanswered, the bridge declines it in time for the tool to answer.
 */
export function PendingElicitations() {
  const { t } = useApp();
  const pending = useLiveList('elicitations', 'getElicitations');
  const now = useNow();
  if (pending.length === 0) return null;
  return (
    <section className="card pending-confirmations" aria-label={t('elicit.title')}>
      <h2>{t('elicit.title')}</h2>
      <ul>
        {pending.map((question) => (
          <ElicitationForm key={question.key} question={question} now={now} />
        ))}
      </ul>
    </section>
  );
}
