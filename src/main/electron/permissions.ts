import type { Session } from 'electron';

import { originOf } from './content-guards';

/** What the window really uses: copying log lines (Logs → Copy) writes to the clipboard. */
const ALLOWED = new Set(['clipboard-sanitized-write']);

/** Granted only to our own page's origin, only for what the app uses. */
export function permitted(permission: string, origin: string | undefined, appOrigin: string): boolean {
  return ALLOWED.has(permission) && origin !== undefined && originOf(origin) === appOrigin;
}

/**
 * Denies every permission request and check (camera, notifications, geolocation, HID…) except the
 * ones the app uses, from its own origin.
 */
export function lockPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
  appOrigin: string,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permitted(permission, details.requestingUrl, appOrigin));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => permitted(permission, requestingOrigin, appOrigin));
}
