import { Notification } from 'electron';

import type { BridgeApi } from '../../shared/bridge-api';
import type { Translate } from '../../shared/i18n/translate';

/**
 * A desktop notification for each call by voice held for the user's OK ("小智 asks to run: Delete
 * a file"); clicking it opens the window, which lists it with Allow and Deny. A notification goes
 * away when its call was answered or expired.
 */
export function notifyConfirmations(api: Pick<BridgeApi, 'on'>, t: () => Translate, open: () => void): () => void {
  const shown = new Map<number, Notification | undefined>();
  return api.on('confirmations', (list) => {
    const waiting = new Set(list.map((p) => p.key));
    for (const [key, notification] of shown) {
      if (waiting.has(key)) continue;
      notification?.close();
      shown.delete(key);
    }
    for (const pending of list) {
      if (shown.has(pending.key)) continue;
      if (!Notification.isSupported()) {
        shown.set(pending.key, undefined);
        continue;
      }
      const seconds = Math.max(0, Math.round((pending.expiresAt - Date.now()) / 1000));
      const notification = new Notification({
        title: t()('confirm.notifyTitle', { caller: pending.caller, title: pending.title }),
        body: t()('confirm.notifyBody', { seconds }),
      });
      notification.on('click', open);
      notification.show();
      shown.set(pending.key, notification);
    }
  });
}
