import { useState } from 'react';

import { hasMessage } from '../../shared/i18n/translate';
import type { ServiceKind } from '../../shared/service-settings';
import type { ServiceSettings } from '../../shared/settings';
import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { SecretsNote } from '../components/host-notices';
import { Dialog, Field, Notice } from '../components/ui';
import { shownMaskedIn, wireMasked } from '../masked';
import { OpenApiChooser } from './openapi-chooser';
import {
  draftFromService,
  emptyServiceDraft,
  hiddenEntries,
  SECRET_FIELDS,
  SERVICE_FIELDS,
  type ServiceDraft,
  type ServiceField,
  validateServiceDraft,
} from './service-form';
import { useServerSave } from './use-server-save';

/** Fields typed as several lines (one argument, service or operation a line). */
const LINES = new Set<ServiceField>(['inputs', 'services', 'operations', 'description']);
const CHOICES: Partial<Record<ServiceField, string[]>> = {
  site: ['coze.cn', 'coze.com'],
  app: ['workflow', 'chat'],
  states: ['yes', 'no'],
};

/**
 * Add or edit a web service: a Coze workflow, a Dify app, an n8n webhook, Home Assistant, an
 * OpenAPI document or one HTTP request, each asking only what its platform needs.
 */
export function ServiceEditor(props: { kind: ServiceKind; service?: ServiceSettings; existingNames: string[]; onClose: () => void }) {
  const { t } = useApp();
  const [draft, setDraft] = useState<ServiceDraft>(() =>
    props.service ? draftFromService(shownMaskedIn(props.service, t)) : emptyServiceDraft(props.kind),
  );
  const [submitted, setSubmitted] = useState(false);
  const [schemes, setSchemes] = useState<string[]>([]);
  const { busy, save: saveServer } = useServerSave(props.service?.name, props.onClose);
  const others = props.existingNames.filter((n) => n !== props.service?.name);
  const previous = props.service ? wireMasked(props.service, t) : undefined;
  const { service, wrong, duplicate, masked } = validateServiceDraft(wireMasked(draft, t), others, previous);
  const set = (field: ServiceField, value: string) => setDraft({ ...draft, [field]: value });
  const kind = t(`servers.transport.${props.kind}`);

  const save = async () => {
    setSubmitted(true);
    if (!service) return;
    await saveServer(service);
  };

  const choiceLabel = (choice: string) => {
    const key: string = `services.choice.${choice}`;
    return hasMessage(key) ? t(key) : choice;
  };
  const fieldFor = (field: ServiceField) => {
    if (field === 'operations' && props.kind === 'openapi') {
      const error = submitted && wrong.has('operations') ? t('services.why.operations') : undefined;
      return (
        <div key={field} className="field">
          <span className="label-like">{t('services.field.operations')}</span>
          <OpenApiChooser
            spec={draft.spec}
            chosen={{ operations: draft.operations, tags: draft.tags, paths: draft.paths }}
            onChange={(chosen) => setDraft({ ...draft, ...chosen })}
            // A document with one security scheme names the credential's field for the user.
            onSchemes={(schemes) => setSchemes(schemes)}
            error={error}
          />
        </div>
      );
    }
    // Why the value is wrong, in the window's language (the schema's own words are English, for the CLI).
    const whyKey: string = `services.why.${field}`;
    const why = masked.has(field)
      ? t('services.stillMasked')
      : field === 'name' && duplicate
        ? t('servers.error.duplicate')
        : hasMessage(whyKey)
          ? t(whyKey)
          : t('services.wrong');
    const error = submitted && wrong.has(field) ? why : undefined;
    const hintKey: string = `services.hint.${props.kind}.${field}`;
    const hidden = hiddenEntries(props.service, field);
    const hint =
      [hasMessage(hintKey) ? t(hintKey) : undefined, hidden > 0 ? t('services.moreKept', { count: hidden }) : undefined]
        .filter(Boolean)
        .join(' ') || undefined;
    const choices =
      field === 'method'
        ? props.kind === 'n8n'
          ? ['POST', 'GET']
          : ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
        : field === 'credentialName' && schemes.length > 0
          ? ['', ...schemes]
          : CHOICES[field];
    return (
      <Field key={field} label={t(`services.field.${field}`)} error={error} {...(hint ? { hint } : {})}>
        {(id) =>
          choices ? (
            <select id={id} value={draft[field]} onChange={(e) => set(field, e.target.value)}>
              {choices.map((choice) => (
                <option key={choice} value={choice}>
                  {choice === '' ? t('services.choice.none') : choiceLabel(choice)}
                </option>
              ))}
            </select>
          ) : LINES.has(field) ? (
            <textarea
              id={id}
              rows={field === 'description' ? 2 : 3}
              spellCheck={false}
              value={draft[field]}
              onChange={(e) => set(field, e.target.value)}
            />
          ) : (
            <input
              id={id}
              className={field === 'name' || field === 'tool' ? undefined : 'mono'}
              type={SECRET_FIELDS.has(field) ? 'password' : 'text'}
              autoComplete="off"
              spellCheck={false}
              value={draft[field]}
              onChange={(e) => set(field, e.target.value)}
            />
          )
        }
      </Field>
    );
  };

  return (
    <Dialog
      wide
      title={props.service ? t('servers.editTitle', { name: props.service.name }) : t('services.addTitle', { kind })}
      onClose={props.onClose}
      onSubmit={() => void save()}
      footer={<DialogFooter onCancel={props.onClose} primary={{ label: t('common.save'), disabled: busy }} />}
    >
      <div className="form">
        <p className="small muted">{t(`services.about.${props.kind}`)}</p>
        {SERVICE_FIELDS[props.kind].map(fieldFor)}
        {/* Where a key is typed, headless: it is written to the config file as it is. */}
        <SecretsNote />
        {submitted && !service && wrong.size > 0 ? <Notice kind="error">{t('services.fixFields')}</Notice> : null}
      </div>
    </Dialog>
  );
}
