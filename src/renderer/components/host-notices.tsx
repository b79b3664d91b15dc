import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';
import { Notice } from './ui';

/** What the host wants the user to know: recovered settings, a read-only config, plain-text secrets. */
export function HostNotices() {
  const { store, t } = useApp();
  const host = useStore(store, (d) => d.host);
  if (!host) return null;
  return (
    <>
      {host.settingsRecovered ? (
        <Notice kind="error">
          {t('notice.settingsRecovered', { path: host.settingsRecovered.movedTo, reason: host.settingsRecovered.reason })}
        </Notice>
      ) : null}
      {host.readOnlyConfig ? (
        <Notice kind="warn">{t('notice.readOnly', { file: host.readOnlyConfig.file, format: host.readOnlyConfig.format })}</Notice>
      ) : null}
      {/* The headless bridge always keeps them in its config file: its normal state, said where they are typed. */}
      {host.secretStorage !== 'encrypted' && host.secretStorage !== 'config-file' ? (
        <Notice kind="warn">{t(`notice.secrets.${host.secretStorage}`)}</Notice>
      ) : null}
    </>
  );
}

/** Beside a box where a token or key is typed, in the headless bridge: a quiet line on where it is kept. */
export function SecretsNote() {
  const { store, t } = useApp();
  const host = useStore(store, (d) => d.host);
  if (host?.secretStorage !== 'config-file') return null;
  return <p className="small muted">{t('notice.secrets.config-file')}</p>;
}
