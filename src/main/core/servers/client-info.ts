/** What this app calls itself in every server's `initialize` (its clientInfo). */
export const CLIENT_INFO = { name: 'xiaozhi-tray', version: '0.1.0' };
