import { type ReactNode, useState } from 'react';

import type { CatalogueEntry } from '../../../shared/catalogue';
import { own } from '../../../shared/own';
import { sameProgram } from '../../../shared/same-program';
import type { ServerSettings } from '../../../shared/settings';
import { useApp } from '../../app-context';
import { DialogFooter } from '../../components/dialog-footer';
import { Button, Dialog, Field, Notice } from '../../components/ui';

import '../../add.css';

/**
 * Adding one catalogue entry, in one step: the values it needs (keys, folders, addresses), or for an
 * entry that needs none a short confirmation of what it is and what it needs; Add saves and starts it.
 * The developer form (command, arguments, JSON) is one click away, filled in, for those who want it.
 */
export function ValuesStep(props: {
  entry: CatalogueEntry;
  /** The server these values make (under a name no other server holds). */
  build: (values: Record<string, string>) => ServerSettings;
  /** The servers held now: a copy of one is flagged before it is added. */
  held: ServerSettings[];
  /** What its runtime means here, when it is not simply there (to fetch, or missing), and what can be done. */
  runtime?: { text: string; missing: boolean; action?: ReactNode };
  busy: boolean;
  onBack: () => void;
  onClose: () => void;
  onAdd: (server: ServerSettings) => void;
  onAdvanced: (server: ServerSettings) => void;
}) {
  const { t, language } = useApp();
  const { entry } = props;
  const text = (x: { en: string; zh: string }) => (language === 'zh-CN' ? x.zh : x.en);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(entry.values.map((v) => [v.id, v.default ?? ''])));
  const [submitted, setSubmitted] = useState(false);
  const missing = entry.values.filter((v) => v.required && !own(values, v.id)?.trim());
  const server = props.build(values);
  const copyOf = props.held.find((s) => sameProgram(server, s));
  const add = () => {
    setSubmitted(true);
    if (missing.length === 0 && !props.busy) props.onAdd(server);
  };
  // npx and uvx fetch the server's package on its first start; a remote server installs nothing.
  const downloads = entry.run.transport === 'stdio' && (entry.run.command === 'npx' || entry.run.command === 'uvx');
  return (
    <Dialog
      wide
      title={
        entry.values.length > 0
          ? t('catalogue.valuesTitle', { name: text(entry.title) })
          : t('add.confirmTitle', { name: text(entry.title) })
      }
      onClose={props.onClose}
      onSubmit={add}
      footer={
        <DialogFooter
          onCancel={props.onClose}
          start={
            <>
              <Button kind="ghost" onClick={props.onBack}>
                {t('catalogue.back')}
              </Button>
              <Button kind="ghost" onClick={() => props.onAdvanced(server)}>
                {t('add.advanced')}
              </Button>
            </>
          }
          primary={{ label: t('plain.catalogue.add'), disabled: props.busy }}
        />
      }
    >
      <p>{text(entry.description)}</p>
      {entry.values.length > 0 ? (
        <div className="form">
          {entry.values.map((value) => (
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
      ) : (
        <p className="muted">{t('add.needsNothing')}</p>
      )}
      <ul className="add-notes small">
        {props.runtime ? (
          <li className={props.runtime.missing ? 'catalogue-runtime-missing' : undefined}>
            {props.runtime.text}
            {props.runtime.action}
          </li>
        ) : null}
        <li>{downloads ? t('add.firstStart') : entry.run.transport === 'stdio' ? t('add.startsAtOnce') : t('add.remote')}</li>
        <li>
          <a href={entry.homepage} target="_blank" rel="noreferrer noopener">
            {t('catalogue.homepage')}
          </a>
        </li>
      </ul>
      {copyOf ? <Notice kind="warn">{t('plain.servers.copyOf', { name: copyOf.name })}</Notice> : null}
    </Dialog>
  );
}
