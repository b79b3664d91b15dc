import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

import { commandChannel, createBridgeClient, eventChannel } from '../shared/bridge-client';

// The window gets the typed BridgeApi and nothing else of Electron.
const api = createBridgeClient({
  invoke: (command, input) => ipcRenderer.invoke(commandChannel(command), input),
  subscribe: (event, listener) => {
    const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(eventChannel(event), handler);
    return () => {
      ipcRenderer.removeListener(eventChannel(event), handler);
    };
  },
});

contextBridge.exposeInMainWorld('xiaozhi', api);
