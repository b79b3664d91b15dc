import { useEffect, useRef, useState } from 'react';

import {
  DOWNLOAD_URL_SHAPE,
  MIRROR_KEYS,
  type MirrorKey,
  type MirrorPreset,
  type MirrorSettings,
  MirrorSettingsSchema,
  presetInUse,
} from '../../shared/mirrors';
import { useApp } from '../app-context';
import { Button, Field, UrlInput } from '../components/ui';
import { useCommand } from '../components/use-command';
import { useStore } from '../store/bridge-store';

/**
 * Settings → Download sources: where npx/uvx get packages and the app gets Node.js and uv. The
 * mainland China preset is listed first in a Chinese window. Until the user chooses, the place's
 * preset is in use (the engine says which): checked, and said to be chosen for them.
 */
export function MirrorSettings() {
  const { store, t, language, toast } = useApp();
  const settings = useStore(store, (d) => d.settings);
  const unchosen = useStore(store, (d) => d.host?.unchosenMirrors ?? 'default');
  const run = useCommand();
  const [draft, setDraft] = useState<Partial<Record<MirrorKey, string>> | undefined>();
  const section = useRef<HTMLElement>(null);
  const loaded = settings !== undefined;
  // A server card that could not reach its registry links here (#/settings?section=mirrors).
  useEffect(() => {
    if (loaded && /[?&]section=mirrors\b/.test(window.location.hash)) section.current?.scrollIntoView({ block: 'start' });
  }, [loaded]);
  if (!settings) return null;
  const mirrors = settings.mirrors;
  const inUse = presetInUse(mirrors, unchosen);
  const chinese = language === 'zh-CN';
  const presets: MirrorPreset[] = chinese ? ['china', 'default', 'custom'] : ['default', 'china', 'custom'];
  const save = (next: MirrorSettings) =>
    run(() => store.api.updatePreferences({ mirrors: next })).then((ok) => {
      if (!ok) return;
      setDraft(undefined);
      toast(t('settings.saved'));
    });
  const value = (key: MirrorKey) => draft?.[key] ?? mirrors[key] ?? '';
  const errorOf = (key: MirrorKey) =>
    value(key).trim() !== '' && !DOWNLOAD_URL_SHAPE.test(value(key).trim()) ? t('mirrors.urlError') : undefined;
  const hasError = MIRROR_KEYS.some((key) => errorOf(key) !== undefined);
  const saveCustom = () => {
    const next: MirrorSettings = { preset: 'custom' };
    for (const key of MIRROR_KEYS) if (value(key).trim() !== '') next[key] = value(key).trim();
    if (MirrorSettingsSchema.safeParse(next).success) void save(next);
  };

  return (
    <section className="panel form" id="mirrors" ref={section}>
      <h2 id="mirrors-title">{t('mirrors.title')}</h2>
      <p className="field-hint">{t('mirrors.hint')}</p>
      {mirrors.preset === undefined ? <p className="small">{t(`mirrors.inUse.${unchosen}`)}</p> : null}
      {chinese && inUse === 'default' ? <p className="small">{t('mirrors.chinaOffer')}</p> : null}
      <div role="radiogroup" aria-labelledby="mirrors-title" className="mirror-presets">
        {presets.map((preset) => (
          <label key={preset} className="radio">
            <input type="radio" name="mirror-preset" checked={inUse === preset} onChange={() => void save({ ...mirrors, preset })} />
            <span>{t(`mirrors.${preset}`)}</span>
          </label>
        ))}
      </div>
      {/* The sites' names and what downloads what, for whoever wants them: folded (a walkthrough met npmmirror and PyPI first). */}
      <details className="small muted technical-detail">
        <summary>{t('runtime.technicalDetail')}</summary>
        {t('mirrors.technical')}
        {language === 'zh-CN' ? '' : ' '}
        {t('mirrors.chinaNote')}
      </details>
      {inUse === 'custom' ? (
        <>
          {MIRROR_KEYS.map((key) => (
            <Field
              key={key}
              label={t(`mirrors.${key}`)}
              error={errorOf(key)}
              hint={t(key === 'uvIndex' ? 'mirrors.uvIndexHint' : 'mirrors.customHint')}
            >
              {(id) => <UrlInput id={id} value={value(key)} onChange={(text) => setDraft({ ...draft, [key]: text })} />}
            </Field>
          ))}
          <div>
            <Button disabled={hasError || draft === undefined} onClick={saveCustom}>
              {t('common.save')}
            </Button>
          </div>
        </>
      ) : null}
    </section>
  );
}
