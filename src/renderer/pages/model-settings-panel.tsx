import { useState } from 'react';

import { MODEL_PRESETS, MODEL_PROVIDERS, modelMissing, type ModelProvider, modelTarget } from '../../shared/model-settings';
import type { Problem } from '../../shared/problem';
import { useApp } from '../app-context';
import { ProblemText } from '../components/problem-text';
import { Button, Field, Notice, SelectField, Switch, UrlInput } from '../components/ui';
import { useCommand } from '../components/use-command';
import { shownMasked } from '../masked';
import { useStore } from '../store/bridge-store';

/** What the form holds before Save: the provider, and what the user typed (empty: the preset's; the key: kept). */
interface Draft {
  provider: ModelProvider;
  baseUrl: string;
  model: string;
  apiKey: string;
  stream: boolean;
}

/**
 * The chat model of "Try a sentence": a provider's preset (its address and model shown as placeholders),
 * the key (stored like the other secrets; shown masked, replaced only when a new one is typed), a test,
 * and the consent to let it answer servers' sampling during calls by voice.
 */
export function ModelSettingsPanel() {
  const { store, t, toast } = useApp();
  const model = useStore(store, (d) => d.settings?.model);
  const run = useCommand();
  const [draft, setDraft] = useState<Draft | undefined>();
  const [tested, setTested] = useState<{ ms: number } | { problem: Problem } | undefined>();
  const form: Draft = draft ?? {
    provider: model?.provider ?? 'deepseek',
    baseUrl: model?.baseUrl ?? '',
    model: model?.model ?? '',
    apiKey: '',
    stream: model?.stream === true,
  };
  const preset = form.provider === 'custom' ? undefined : MODEL_PRESETS[form.provider];
  const sameProvider = model?.provider === form.provider;
  const set = (patch: Partial<Draft>) => setDraft({ ...form, ...patch });
  const save = () =>
    run(() =>
      store.api.setModel({
        provider: form.provider,
        baseUrl: form.baseUrl.trim() === '' ? null : form.baseUrl.trim(),
        model: form.model.trim() === '' ? null : form.model.trim(),
        ...(form.apiKey.trim() !== '' ? { apiKey: form.apiKey.trim() } : {}),
        stream: form.stream,
      }),
    ).then((ok) => {
      if (!ok) return;
      setDraft(undefined);
      setTested(undefined);
      toast(t('try.model.saved'));
    });
  const test = async () => {
    setTested(undefined);
    setTested(await store.api.testModel());
  };
  const keyLine =
    !preset?.needsKey && form.provider !== 'custom'
      ? t('try.model.keyNotNeeded')
      : sameProvider && model?.apiKey
        ? t('try.model.keySet', { masked: shownMasked(model.apiKey, t) })
        : t('try.model.keyNone');
  const target = modelTarget({ provider: form.provider });

  return (
    <section className="panel form" aria-labelledby="model-title">
      <h2 id="model-title">{t('try.model.title')}</h2>
      <p className="field-hint">{t('try.model.lead')}</p>
      <SelectField
        label={t('try.model.provider')}
        value={form.provider}
        options={MODEL_PROVIDERS.map((p) => [p, t(`try.provider.${p}`)] as const)}
        onChange={(provider) => setDraft({ provider, baseUrl: '', model: '', apiKey: '', stream: form.stream })}
      />
      <Field label={t('try.model.baseUrl')}>
        {(id) => (
          <UrlInput id={id} value={form.baseUrl} placeholder={target.baseUrl || 'https://'} onChange={(baseUrl) => set({ baseUrl })} />
        )}
      </Field>
      <Field label={t('try.model.model')}>
        {(id) => (
          <input
            id={id}
            spellCheck={false}
            value={form.model}
            placeholder={target.model}
            onChange={(e) => set({ model: e.target.value })}
          />
        )}
      </Field>
      {preset?.needsKey !== false ? (
        <Field label={t('try.model.apiKey')} hint={keyLine}>
          {(id) => (
            <input id={id} type="password" autoComplete="off" value={form.apiKey} onChange={(e) => set({ apiKey: e.target.value })} />
          )}
        </Field>
      ) : (
        <p className="small muted">{keyLine}</p>
      )}
      {preset?.keyPage ? (
        <p className="small">
          <a href={preset.keyPage} target="_blank" rel="noreferrer">
            {t(form.provider === 'ollama' ? 'try.model.getModel' : 'try.model.getKey')}
          </a>
        </p>
      ) : null}
      <Switch checked={form.stream} onChange={(stream) => set({ stream })} label={t('try.model.stream')} showLabel />
      <div className="form-actions">
        <Button kind="primary" disabled={draft === undefined} onClick={() => void save()}>
          {t('try.model.save')}
        </Button>
        <Button disabled={!model || draft !== undefined} onClick={() => void test()}>
          {t('try.model.test')}
        </Button>
        {model ? (
          <Button kind="ghost" onClick={() => void run(() => store.api.removeModel()).then((ok) => ok && toast(t('try.model.removed')))}>
            {t('try.model.remove')}
          </Button>
        ) : null}
      </div>
      {model && draft === undefined && modelMissing(model).length > 0 ? (
        <Notice kind="warn">
          {t('try.model.missing', {
            fields: modelMissing(model)
              .map((field) => t(`try.model.${field}`))
              .join(t('try.model.missingJoin')),
          })}
        </Notice>
      ) : null}
      {tested && 'ms' in tested ? (
        <p className="small" role="status">
          {t('try.model.tested', { ms: tested.ms })}
        </p>
      ) : null}
      {tested && 'problem' in tested ? <ProblemText problem={tested.problem} /> : null}
      {model ? (
        <div className="field">
          <Switch
            checked={model.sampling.enabled}
            onChange={(enabled) => void run(() => store.api.setModel({ provider: model.provider, sampling: { enabled } }))}
            label={t('try.model.sampling')}
            showLabel
          />
          <div className="field-hint">
            {t('try.model.samplingNote', {
              provider: t(`try.provider.${model.provider}`),
              perCall: model.sampling.perCall,
              maxTokens: model.sampling.maxTokens,
              seconds: Math.round(model.sampling.timeoutMs / 1000),
            })}
          </div>
        </div>
      ) : null}
    </section>
  );
}
