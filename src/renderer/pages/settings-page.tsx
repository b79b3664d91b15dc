import { useState } from 'react';

import { own } from '../../shared/own';
import { useApp } from '../app-context';
import { BudgetSettings } from '../components/budget-settings';
import { HostNotices } from '../components/host-notices';
import { PagePanels } from '../components/page-panels';
import { Button, Field, SelectField, Switch } from '../components/ui';
import { useCommand } from '../components/use-command';
import { shownMasked } from '../masked';
import { useStore } from '../store/bridge-store';
import { ConfirmationSettings } from './confirmation-settings';
import { LocalServerSection } from './local-server-section';
import { MirrorSettings } from './mirror-settings';
import { UpdateSettings } from './update-settings';

/** The system as its users call it (the engine reports Node's platform ids: win32, darwin, linux). */
const PLATFORM_NAMES: Record<string, string> = { win32: 'Windows', darwin: 'macOS', linux: 'Linux' };

export function SettingsPage() {
  const { store, t, toast } = useApp();
  const settings = useStore(store, (d) => d.settings);
  const host = useStore(store, (d) => d.host);
  const run = useCommand();
  const [limitText, setLimitText] = useState<string | undefined>();
  const [timeoutText, setTimeoutText] = useState<string | undefined>();
  const [backgroundText, setBackgroundText] = useState<string | undefined>();
  const [modelscopeKey, setModelscopeKey] = useState('');
  const [keyShown, setKeyShown] = useState(false);
  if (!settings || !host) return null;
  const update = (patch: Parameters<typeof store.api.updatePreferences>[0]) => run(() => store.api.updatePreferences(patch));
  const limitValue = limitText ?? String(settings.limits.maxMessageBytes);
  const timeoutValue = timeoutText ?? String(settings.limits.callTimeoutMs / 1000);
  const limitNumber = Number(limitValue);
  const timeoutNumber = Number(timeoutValue);
  const limitError = !Number.isInteger(limitNumber) || limitNumber < 1024 ? t('settings.limitError') : undefined;
  const timeoutError = !Number.isFinite(timeoutNumber) || timeoutNumber < 1 ? t('settings.timeoutError') : undefined;
  const backgroundValue = backgroundText ?? String(settings.limits.backgroundTimeoutMs / 60_000);
  const backgroundNumber = Number(backgroundValue);
  const backgroundError =
    !Number.isFinite(backgroundNumber) || backgroundNumber < 1 || backgroundNumber > 1440
      ? t('settings.backgroundTimeoutError')
      : undefined;

  return (
    <div className="page">
      <h1>{t('nav.settings')}</h1>
      <PagePanels />
      <HostNotices />

      <section className="panel form">
        <h2>{t('settings.general')}</h2>
        {host.launchAtLogin !== null ? (
          <Switch
            showLabel
            label={t('settings.launchAtLogin')}
            checked={host.launchAtLogin}
            onChange={(enabled) => void run(() => store.api.setLaunchAtLogin({ enabled }))}
          />
        ) : null}
        {host.carrier === 'electron' ? (
          <Switch
            showLabel
            label={t('settings.startHidden')}
            checked={settings.ui.startHidden}
            onChange={(startHidden) => void update({ ui: { startHidden } })}
          />
        ) : null}
        <div className="form-row">
          <SelectField
            label={t('settings.language')}
            value={settings.ui.language}
            options={[
              ['system', t('settings.language.system')],
              // Each language in its own words: found by who reads it.
              ['zh-CN', '简体中文'],
              ['en', 'English'],
            ]}
            onChange={(language) => void update({ ui: { language } })}
          />
          <SelectField
            label={t('settings.theme')}
            value={settings.ui.theme}
            options={[
              ['system', t('settings.theme.system')],
              ['light', t('settings.theme.light')],
              ['dark', t('settings.theme.dark')],
            ]}
            onChange={(theme) => void update({ ui: { theme } })}
          />
        </div>
      </section>

      <MirrorSettings />
      <ConfirmationSettings />
      <UpdateSettings />

      {/* What a person who is not a developer never needs to change, folded (issue 33): each says what it is for. */}
      <details className="advanced-settings">
        <summary>
          <h2>{t('settings.advanced')}</h2>
          <span className="small muted">{t('settings.advancedHint')}</span>
        </summary>
        <section className="panel form">
          <h2>{t('settings.serving')}</h2>
          <p className="small muted settings-purpose">{t('settings.servingPurpose')}</p>
          <SelectField
            label={t('settings.naming')}
            hint={t('settings.namingHint')}
            value={settings.naming}
            options={[
              ['auto', t('settings.naming.auto')],
              ['always-prefix', t('settings.naming.prefix')],
            ]}
            onChange={(naming) => void update({ naming })}
          />
          <div className="form-row">
            <Field label={t('settings.limit')} term={t('settings.limitTerm')} error={limitError} hint={t('settings.limitHint')}>
              {(id) => (
                <input id={id} type="number" min="1024" step="1" value={limitValue} onChange={(e) => setLimitText(e.target.value)} />
              )}
            </Field>
            <Field label={t('settings.timeout')} error={timeoutError} hint={t('settings.timeoutHint')}>
              {(id) => <input id={id} type="number" min="1" value={timeoutValue} onChange={(e) => setTimeoutText(e.target.value)} />}
            </Field>
            <Field label={t('settings.backgroundTimeout')} error={backgroundError} hint={t('settings.backgroundTimeoutHint')}>
              {(id) => (
                <input
                  id={id}
                  type="number"
                  min="1"
                  max="1440"
                  value={backgroundValue}
                  onChange={(e) => setBackgroundText(e.target.value)}
                />
              )}
            </Field>
          </div>
          <div>
            <Button
              kind="primary"
              disabled={
                Boolean(limitError || timeoutError || backgroundError) ||
                (limitText === undefined && timeoutText === undefined && backgroundText === undefined)
              }
              onClick={() =>
                void update({
                  limits: {
                    ...settings.limits,
                    maxMessageBytes: limitNumber,
                    callTimeoutMs: Math.round(timeoutNumber * 1000),
                    backgroundTimeoutMs: Math.round(backgroundNumber * 60_000),
                  },
                }).then((ok) => {
                  if (!ok) return;
                  setLimitText(undefined);
                  setTimeoutText(undefined);
                  setBackgroundText(undefined);
                  toast(t('settings.saved'));
                })
              }
            >
              {t('common.save')}
            </Button>
          </div>
        </section>

        <section className="panel form">
          <h2>{t('settings.modelscopeTitle')}</h2>
          <p className="small muted settings-purpose">{t('settings.modelscopePurpose')}</p>
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              if (!modelscopeKey.trim()) return;
              void run(() => store.api.setModelscopeKey({ apiKey: modelscopeKey.trim() })).then((ok) => {
                if (!ok) return;
                setModelscopeKey('');
                toast(t('settings.modelscopeSaved'));
              });
            }}
          >
            <Field
              label={t('settings.modelscope')}
              hint={
                settings.modelscope.apiKey
                  ? t('settings.modelscopeSet', { masked: shownMasked(settings.modelscope.apiKey, t) })
                  : t('settings.modelscopeHint')
              }
            >
              {(id) => (
                <div className="input-with-button">
                  <input
                    id={id}
                    className="mono"
                    type={keyShown ? 'text' : 'password'}
                    autoComplete="off"
                    spellCheck={false}
                    value={modelscopeKey}
                    onChange={(e) => setModelscopeKey(e.target.value)}
                  />
                  <Button small aria-label={keyShown ? t('common.hide') : t('common.show')} onClick={() => setKeyShown(!keyShown)}>
                    {keyShown ? t('common.hide') : t('common.show')}
                  </Button>
                </div>
              )}
            </Field>
            <div className="toolbar">
              <Button kind="primary" type="submit" disabled={!modelscopeKey.trim()}>
                {t('common.save')}
              </Button>
              {settings.modelscope.apiKey ? (
                <Button
                  kind="danger"
                  onClick={() =>
                    void run(() => store.api.setModelscopeKey({ apiKey: null })).then((ok) => ok && toast(t('settings.modelscopeRemoved')))
                  }
                >
                  {t('settings.modelscopeRemove')}
                </Button>
              ) : null}
            </div>
          </form>
        </section>
        <BudgetSettings />
        <LocalServerSection />
      </details>

      <section className="panel">
        <h2>{t('settings.about')}</h2>
        <p className="small muted">
          {t('app.name')} {host.version} · {own(PLATFORM_NAMES, host.platform) ?? host.platform}
          {host.logsFolder ? ` · ${host.logsFolder}` : ''}
        </p>
        {host.logsFolder ? (
          <Button small onClick={() => void store.api.openLogsFolder().catch((e: Error) => toast(e.message, 'error'))}>
            {t('tray.openLogs')}
          </Button>
        ) : null}
      </section>
    </div>
  );
}
