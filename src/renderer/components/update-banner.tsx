import { useEffect } from 'react';

import type { MessageKey, Translate } from '../../shared/i18n/translate';
import type { UpdateStatus } from '../../shared/updates';
import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';
import { Button, Notice } from './ui';

/** The words for an updater problem, in the user's language. */
export function updateErrorText(error: NonNullable<UpdateStatus['error']>, t: Translate): string {
  return t(`updates.error.${error.code}` as MessageKey, { message: error.message });
}

/**
 * "Restart to update to x.y.z" (or, for a .deb, where to get it) above every page; a problem is
 * toasted once, when the updater says it is new.
 */
export function UpdateBanner() {
  const { store, t, toast } = useApp();
  const update = useStore(store, (d) => d.update);
  useEffect(
    () =>
      store.api.on('update', (status) => {
        if (status.state === 'error' && status.error?.announce) toast(updateErrorText(status.error, t), 'error');
      }),
    [store, t, toast],
  );
  if (update?.state === 'ready') {
    return (
      <Notice kind="info">
        <span className="banner">
          <span>{t('updates.ready', { version: update.version ?? '' })}</span>
          <Button small kind="primary" onClick={() => void store.api.installUpdate().catch((e: Error) => toast(e.message, 'error'))}>
            {t('updates.restartTo', { version: update.version ?? '' })}
          </Button>
        </span>
      </Notice>
    );
  }
  if (update?.state === 'manual' && update.downloadUrl) {
    return (
      <Notice kind="info">
        <span className="banner">
          <span>
            {t('updates.available', { version: update.version ?? '' })} {t('updates.manualHint')}
          </span>
          <a className="btn btn-primary btn-small" href={update.downloadUrl} target="_blank" rel="noreferrer">
            {t('updates.getVersion', { version: update.version ?? '' })}
          </a>
        </span>
      </Notice>
    );
  }
  return null;
}
