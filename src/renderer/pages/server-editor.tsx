import { useState } from 'react';

import { sameProgram } from '../../shared/same-program';
import { type ServerSettings, ServerSettingsSchema } from '../../shared/settings';
import { firstIssue } from '../../shared/zod-issue';
import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { useServerTitle } from '../components/server-title';
import { transportTerm } from '../components/transport-tag';
import { Button, CodeField, Dialog, Field, KeyValueEditor, Notice, SelectField, Switch } from '../components/ui';
import { shownMaskedIn, wireMasked } from '../masked';
import { useStore } from '../store/bridge-store';
import { draftFromServer, emptyDraft, type ServerDraft, serverFromDraft, validateDraft } from './server-form';
import { useServerSave } from './use-server-save';

/** Add or edit a server: a form for stdio or remote servers, or the raw JSON. */
export function ServerEditor(props: {
  server?: ServerSettings;
  initial?: ServerSettings;
  existingNames: string[];
  onClose: () => void;
  onBack?: () => void;
}) {
  const { store, t } = useApp();
  const modelscopeKey = useStore(store, (d) => d.settings?.modelscope.apiKey);
  const held = useStore(store, (d) => d.settings?.servers);
  const [draft, setDraft] = useState<ServerDraft>(() => {
    const from = props.server ?? props.initial;
    return from ? draftFromServer(shownMaskedIn(from, t)) : emptyDraft();
  });
  const [raw, setRaw] = useState<string | undefined>();
  const [rawError, setRawError] = useState<string | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const { busy, save: saveServer } = useServerSave(props.server?.name, props.onClose);
  const others = props.existingNames.filter((n) => n !== props.server?.name);
  const { server, errors } = validateDraft(draft, others);
  // A copy of a server already held: each tool would be served twice, both renamed with their server in front.
  const copyOf = server ? held?.find((s) => s.name !== props.server?.name && sameProgram(server, s)) : undefined;
  // A catalogue server is called by its title; its name here is the internal one, said so.
  const title = useServerTitle();
  const titled = props.server ? title(props.server.name) : undefined;
  const internal = titled !== undefined && titled !== props.server?.name;
  const set = (patch: Partial<ServerDraft>) => setDraft({ ...draft, ...patch });
  const shown = (key: keyof typeof errors) => {
    const code = submitted ? errors[key] : undefined;
    return code ? t(`servers.error.${code}`) : undefined;
  };
  const modelscope = draft.transport !== 'stdio' && /(^|\.)modelscope\.(cn|net)$/i.test(safeHost(draft.url));

  const toRaw = () => {
    setRaw(JSON.stringify(serverFromDraft(draft), null, 2));
    setRawError(undefined);
  };
  const fromRaw = (): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(raw ?? '{}');
    } catch (error) {
      setRawError(t('servers.rawInvalid', { message: (error as Error).message }));
      return false;
    }
    const parsed = ServerSettingsSchema.safeParse(value);
    if (!parsed.success) {
      const issue = firstIssue(parsed.error);
      setRawError(`${issue.path || 'JSON'}: ${issue.message}`);
      return false;
    }
    setDraft(draftFromServer(parsed.data));
    setRaw(undefined);
    setRawError(undefined);
    return true;
  };
  const save = async () => {
    setSubmitted(true);
    if (raw !== undefined) return void fromRaw();
    if (!server) return;
    await saveServer(wireMasked(server, t));
  };

  return (
    <Dialog
      wide
      title={props.server ? t('servers.editTitle', { name: titled ?? props.server.name }) : t('servers.addTitle')}
      onClose={props.onClose}
      onSubmit={() => void save()}
      footer={
        <DialogFooter
          onCancel={props.onClose}
          start={
            <>
              {props.onBack ? (
                <Button kind="ghost" onClick={props.onBack}>
                  {t('common.back')}
                </Button>
              ) : null}
              <Button kind="ghost" onClick={() => (raw === undefined ? toRaw() : void fromRaw())}>
                {raw === undefined ? t('servers.rawMode') : t('servers.formMode')}
              </Button>
            </>
          }
          primary={{ label: t('common.save'), disabled: busy }}
        />
      }
    >
      {raw !== undefined ? (
        <CodeField label={t('servers.rawLabel')} error={rawError} rows={16} value={raw} onChange={setRaw} />
      ) : (
        <div className="form">
          <div className="form-row">
            <Field
              label={t(internal ? 'names9.servers.internalName' : 'servers.name')}
              error={shown('name')}
              hint={t(internal ? 'names9.servers.internalNameHint' : 'servers.nameHint')}
            >
              {(id) => <input id={id} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
            </Field>
            <SelectField
              label={t('servers.transport')}
              hint={t('servers.transportTerm', { term: transportTerm(draft.transport) ?? draft.transport })}
              value={draft.transport}
              options={[
                ['stdio', t('servers.transport.stdio')],
                ['streamable-http', t('servers.transport.http')],
                ['sse', t('servers.transport.sse')],
              ]}
              onChange={(transport) => set({ transport })}
            />
          </div>
          {draft.transport === 'stdio' ? (
            <>
              <Field label={t('servers.command')} error={shown('command')} hint={t('servers.commandHint')}>
                {(id) => (
                  <input
                    id={id}
                    className="mono"
                    value={draft.command}
                    spellCheck={false}
                    onChange={(e) => set({ command: e.target.value })}
                  />
                )}
              </Field>
              <CodeField
                label={t('servers.args')}
                hint={t('servers.argsHint')}
                rows={3}
                value={draft.args}
                onChange={(args) => set({ args })}
              />
              <KeyValueEditor legend={t('servers.env')} term={t('servers.envTerm')} value={draft.env} onChange={(env) => set({ env })} />
              <Field label={t('servers.cwd')} term={t('servers.cwdTerm')}>
                {(id) => (
                  <input id={id} className="mono" value={draft.cwd} spellCheck={false} onChange={(e) => set({ cwd: e.target.value })} />
                )}
              </Field>
            </>
          ) : (
            <>
              <Field label={t('servers.url')} error={shown('url')} hint={t('servers.urlHint')}>
                {(id) => (
                  <input id={id} className="mono" value={draft.url} spellCheck={false} onChange={(e) => set({ url: e.target.value })} />
                )}
              </Field>
              {modelscope ? (
                <Notice kind={modelscopeKey ? 'info' : 'warn'}>
                  {modelscopeKey ? t('servers.modelscopeHint') : t('servers.modelscopeMissing')}
                </Notice>
              ) : null}
              <KeyValueEditor legend={t('servers.headers')} value={draft.headers} onChange={(headers) => set({ headers })} />
            </>
          )}
          <div className="form-row">
            <Field label={t('servers.timeout')} error={shown('callTimeoutSeconds')} hint={t('servers.timeoutHint')}>
              {(id) => (
                <input
                  id={id}
                  type="number"
                  min="1"
                  value={draft.callTimeoutSeconds}
                  onChange={(e) => set({ callTimeoutSeconds: e.target.value })}
                />
              )}
            </Field>
            <div className="field">
              <span className="label-like" aria-hidden="true">
                {t('servers.enabled')}
              </span>
              <Switch label={t('servers.enabled')} checked={draft.enabled} onChange={(enabled) => set({ enabled })} />
            </div>
          </div>
          <div className="field">
            <Switch
              showLabel
              label={t('servers.checkArguments')}
              checked={draft.checkArguments}
              onChange={(checkArguments) => set({ checkArguments })}
            />
            <div className="field-hint">{t('servers.checkArgumentsHint')}</div>
          </div>
          {copyOf ? <Notice kind="warn">{t('plain.servers.copyOf', { name: title(copyOf.name) })}</Notice> : null}
          {submitted && errors.form ? <Notice kind="error">{t(`servers.error.${errors.form}`)}</Notice> : null}
          {props.initial ? <p className="small muted">{t('catalogue.nothingRuns')}</p> : null}
        </div>
      )}
    </Dialog>
  );
}

function safeHost(url: string): string {
  try {
    return new URL(url.trim()).hostname;
  } catch {
    return '';
  }
}
