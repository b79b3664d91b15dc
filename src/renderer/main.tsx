import { createRoot } from 'react-dom/client';

import type { BridgeApi } from '../shared/bridge-api';
import { createBridgeClient } from '../shared/bridge-client';
import { webSocketCarrier } from './api/web-carrier';
import { App } from './app';
import { BridgeStore } from './store/bridge-store';

import './styles.css';
import './activity.css';
import './overview.css';

declare global {
  interface Window {
    xiaozhi?: BridgeApi;
  }
}

/** Under Electron the preload gave us the API; in a browser we talk to the headless bridge. */
function connect(): { api: BridgeApi; onConnection: (cb: (c: boolean) => void) => void; onRefused: (cb: () => void) => void } {
  if (window.xiaozhi) return { api: window.xiaozhi, onConnection: () => undefined, onRefused: () => undefined };
  const token =
    new URLSearchParams(window.location.hash.split('?')[1] ?? window.location.search.slice(1)).get('token') ??
    localStorage.getItem('xiaozhi-token') ??
    '';
  // Keep the token out of the address bar (and screenshots) once read; kept for this address (the run
  // keeps its port and token across restarts), so a bookmark of the page opens it in a new tab too.
  if (token) localStorage.setItem('xiaozhi-token', token);
  if (window.location.hash.includes('token=')) history.replaceState(null, '', window.location.pathname + '#/overview');
  // The new address pasted into this tab is only a hash change: read its token by loading afresh.
  window.addEventListener('hashchange', () => {
    if (window.location.hash.includes('token=')) window.location.reload();
  });
  let notify: (c: boolean) => void = () => undefined;
  let refused: () => void = () => undefined;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const query = `token=${encodeURIComponent(token)}`;
  const carrier = webSocketCarrier(`${scheme}://${window.location.host}/api?${query}`, (c) => notify(c), {
    checkUrl: `/api/check?${query}`,
    onRefused: () => refused(),
  });
  return { api: createBridgeClient(carrier), onConnection: (cb) => (notify = cb), onRefused: (cb) => (refused = cb) };
}

const { api, onConnection, onRefused } = connect();
const store = new BridgeStore(api);
onConnection((c) => store.setConnected(c));
onRefused(() => store.setRefused());
void store.load();
createRoot(document.getElementById('root') as HTMLElement).render(<App store={store} />);
