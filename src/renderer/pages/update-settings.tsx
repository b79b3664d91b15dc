import { useState } from 'react';

import type { Translate } from '../../shared/i18n/translate';
import { DOWNLOAD_URL_SHAPE } from '../../shared/mirrors';
import type { UpdateStatus } from '../../shared/updates';
import { useApp } from '../app-context';
import { Button, Field, Switch, UrlInput } from '../components/ui';
import { updateErrorText } from '../components/update-banner';
import { useCommand } from '../components/use-command';
import { useStore } from '../store/bridge-store';

function statusLine(update: UpdateStatus, t: Translate, language: string): string {
  const checked = update.checkedAt ? ` ${t('updates.checkedAt', { time: new Date(update.checkedAt).toLocaleString(language) })}` : '';
  switch (update.state) {
    case 'checking':
      return t('updates.checking');
    case 'up-to-date':
      return t('updates.upToDate', { version: update.currentVersion }) + '.' + checked;
    case 'downloading':
      return t('updates.downloading', { version: update.version ?? '', percent: update.percent ?? 0 });
    case 'ready':
      return t('updates.ready', { version: update.version ?? '' });
    case 'manual':
      return `${t('updates.available', { version: update.version ?? '' })} ${t('updates.manualHint')}`;
    case 'error':
      return (update.error ? updateErrorText(update.error, t) : t('updates.failedShort')) + checked;
    case 'disabled':
      return t('updates.disabled') + checked;
    case 'unsupported':
      return t('updates.unsupported');
    default:
      return t('updates.idle');
  }
}

/** Settings → Updates: the automatic switch, the mirror, "Check for updates" and what the updater is doing. */
export function UpdateSettings() {
  const { store, t, language, toast } = useApp();
  const settings = useStore(store, (d) => d.settings);
  const update = useStore(store, (d) => d.update);
  const host = useStore(store, (d) => d.host);
  const run = useCommand();
  const [mirrorText, setMirrorText] = useState<string | undefined>();
  const [checking, setChecking] = useState(false);
  // The desktop app updates itself; the headless bridge is updated by whoever runs it.
  if (!settings || !update || host?.carrier !== 'electron') return null;
  const unsupported = update.state === 'unsupported';
  const mirror = mirrorText ?? settings.updates.mirrorUrl ?? '';
  const mirrorError = mirror.trim() !== '' && !DOWNLOAD_URL_SHAPE.test(mirror.trim()) ? t('updates.mirrorError') : undefined;
  const source = update.defaultMirror ?? t('updates.github');

  const check = async () => {
    setChecking(true);
    try {
      const status = await store.api.checkForUpdates();
      store.setUpdate(status);
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setChecking(false);
    }
  };

  return (
    <section className="panel form">
      <h2>{t('updates.title')}</h2>
      <Switch
        showLabel
        label={t('updates.auto')}
        checked={settings.updates.enabled}
        onChange={(enabled) => void run(() => store.api.updatePreferences({ updates: { enabled } }))}
      />
      <div className="field-hint">{t('updates.autoHint')}</div>
      <Field label={t('updates.mirror')} error={mirrorError} hint={t('updates.mirrorHint', { source })}>
        {(id) => <UrlInput id={id} value={mirror} placeholder={update.defaultMirror} onChange={setMirrorText} />}
      </Field>
      <div className="update-status">
        <Button
          disabled={Boolean(mirrorError) || mirrorText === undefined}
          onClick={() =>
            void run(() => store.api.updatePreferences({ updates: { mirrorUrl: mirror.trim() === '' ? null : mirror.trim() } })).then(
              (ok) => {
                if (!ok) return;
                setMirrorText(undefined);
                toast(t('settings.saved'));
              },
            )
          }
        >
          {t('common.save')}
        </Button>
        <Button
          kind="primary"
          disabled={unsupported || checking || update.state === 'checking' || update.state === 'downloading'}
          onClick={() => void check()}
        >
          {t('updates.check')}
        </Button>
        {update.state === 'ready' ? (
          <Button kind="primary" onClick={() => void store.api.installUpdate().catch((e: Error) => toast(e.message, 'error'))}>
            {t('updates.restartTo', { version: update.version ?? '' })}
          </Button>
        ) : null}
      </div>
      <p className="small" role="status">
        {statusLine(update, t, language)}
      </p>
    </section>
  );
}
