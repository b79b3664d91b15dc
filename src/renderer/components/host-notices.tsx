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
      {host.secretStorage !== 'encrypted' ? <Notice kind="warn">{t(`notice.secrets.${host.secretStorage}`)}</Notice> : null}
    </>
  );
}
