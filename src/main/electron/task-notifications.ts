import { Notification } from 'electron';

import type { BridgeApi } from '../../shared/bridge-api';
import type { Translate } from '../../shared/i18n/translate';

/** A notification's body: the start of the result (the window has all of it). */
const BODY_CHARS = 240;

/**
 * A desktop notification for each long call that finishes after its caller was answered ("task 3F
 * is done: deep search", and the start of its result); clicking it opens the window. Calls that
 * ended within their caller's patience were answered as usual and need none.
 */
export function notifyFinishedTasks(api: Pick<BridgeApi, 'on'>, t: () => Translate, open: () => void): () => void {
  return api.on('task', (task) => {
    if (task.removed || task.id === undefined || (task.state !== 'done' && task.state !== 'failed')) return;
    if (!Notification.isSupported()) return;
    const result = task.result ?? '';
    const notification = new Notification({
      title: t()(task.state === 'done' ? 'tasks.notifyDone' : 'tasks.notifyFailed', { id: task.id, tool: task.tool }),
      body: result.length > BODY_CHARS ? `${result.slice(0, BODY_CHARS)}…` : result,
    });
    notification.on('click', open);
    notification.show();
  });
}
