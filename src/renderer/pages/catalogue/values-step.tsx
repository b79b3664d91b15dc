import { useEffect, useEffectEvent, useState } from 'react';

import type { CatalogueEntry } from '../../../shared/catalogue';
import { own } from '../../../shared/own';
import { useApp } from '../../app-context';
import { DialogFooter } from '../../components/dialog-footer';
import { Button, Dialog, Field } from '../../components/ui';

/** The values an entry needs (keys, folders, addresses), asked for before the form opens. */
export function ValuesStep(props: {
  entry: CatalogueEntry;
  onBack: () => void;
  onClose: () => void;
  onDone: (values: Record<string, string>) => void;
}) {
  const { t, language } = useApp();
  const text = (x: { en: string; zh: string }) => (language === 'zh-CN' ? x.zh : x.en);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(props.entry.values.map((v) => [v.id, v.default ?? ''])),
  );
  const [submitted, setSubmitted] = useState(false);
  const missing = props.entry.values.filter((v) => v.required && !own(values, v.id)?.trim());
  const done = () => {
    setSubmitted(true);
    if (missing.length === 0) props.onDone(values);
  };
  // An entry that needs no values is done at once, once per entry.
  const doneWithNothing = useEffectEvent(() => props.onDone({}));
  const needsNothing = props.entry.values.length === 0;
  useEffect(() => {
    if (needsNothing) doneWithNothing();
  }, [needsNothing]);
  if (props.entry.values.length === 0) return null;
  return (
    <Dialog
      wide
      title={t('catalogue.valuesTitle', { name: text(props.entry.title) })}
      onClose={props.onClose}
      onSubmit={done}
      footer={
        <DialogFooter
          onCancel={props.onClose}
          start={
            <Button kind="ghost" onClick={props.onBack}>
              {t('catalogue.back')}
            </Button>
          }
          primary={{ label: t('catalogue.continue') }}
        />
      }
    >
      <p className="muted">{text(props.entry.description)}</p>
      <div className="form">
        {props.entry.values.map((value) => (
          <Field
            key={value.id}
            label={value.required ? `${text(value.label)} *` : t('catalogue.optional', { label: text(value.label) })}
            error={submitted && missing.includes(value) ? t('servers.error.required') : undefined}
            {...(value.hint ? { hint: text(value.hint) } : {})}
          >
            {(id) => (
              <input
                id={id}
                className={value.kind === 'text' ? undefined : 'mono'}
                type={value.kind === 'secret' ? 'password' : value.kind === 'url' ? 'url' : 'text'}
                autoComplete="off"
                spellCheck={false}
                value={own(values, value.id) ?? ''}
                onChange={(e) => setValues({ ...values, [value.id]: e.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
      <p className="small muted">
        <a href={props.entry.homepage} target="_blank" rel="noreferrer noopener">
          {t('catalogue.homepage')}
        </a>{' '}
        · {t('catalogue.nothingRuns')}
      </p>
    </Dialog>
  );
}
