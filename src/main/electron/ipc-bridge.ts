import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';

import { type BridgeApi, commandNames, eventNames } from '../../shared/bridge-api';
import { commandChannel, eventChannel } from '../../shared/bridge-client';

export interface IpcBinding {
  dispose(): void;
}

/**
 * Binds every BridgeApi command to `ipcMain.handle`. Only our own window may call: anything else
 * (another frame, a navigated page) is refused. The api itself validates every payload.
 */
export function bindIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  api: BridgeApi,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
  target: () => WebContents | undefined,
): IpcBinding {
  for (const name of commandNames) {
    ipcMain.handle(commandChannel(name), async (event, input: unknown) => {
      if (!isTrustedSender(event)) throw new Error(`Refused "${name}": the request did not come from the Xiaozhi Tray window.`);
      // The api validates the payload against the shared schema (for every carrier, once).
      return (api[name] as (i: unknown) => Promise<unknown>)(input);
    });
  }
  const unsubscribers = eventNames.map((event) =>
    api.on(event, (payload) => {
      const contents = target();
      if (contents && !contents.isDestroyed()) contents.send(eventChannel(event), payload);
    }),
  );
  return {
    dispose() {
      for (const name of commandNames) ipcMain.removeHandler(commandChannel(name));
      for (const off of unsubscribers) off();
    },
  };
}

/** The sender is our window's main frame showing our own page. */
export function trustedSender(window: () => { webContents: WebContents } | undefined, expectedUrlPrefix: string) {
  return (event: IpcMainInvokeEvent): boolean => {
    const win = window();
    if (!win || event.sender !== win.webContents) return false;
    const frame = event.senderFrame;
    if (!frame || frame !== win.webContents.mainFrame) return false;
    return frame.url.startsWith(expectedUrlPrefix);
  };
}
