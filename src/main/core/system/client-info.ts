import { APP_VERSION } from './version';
/** What this app calls itself in every server's `initialize` (its clientInfo). */
export const CLIENT_INFO = { name: 'xiaozhi-tray', version: APP_VERSION };
