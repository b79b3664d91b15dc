import type { MessageKey } from '../../shared/i18n/translate';
import type { BridgeState } from '../../shared/status';

/** The one-line summary under the navigation, matching what the tray icon says. */
export function trayLikeTone(state: BridgeState): { tone: 'ok' | 'warn' | 'busy' | 'off' | 'bad'; label: MessageKey; params?: Record<string, number> } {
  const endpoints = state.endpoints.filter((e) => e.enabled);
  if (!state.running) return { tone: 'off', label: 'summary.stopped' };
  if (endpoints.length === 0) return { tone: 'off', label: 'summary.noEndpoint' };
  const connected = endpoints.filter((e) => e.state === 'connected').length;
  const params = { connected, total: endpoints.length };
  if (state.servers.some((s) => s.enabled && s.state === 'failed')) return { tone: 'bad', label: 'summary.serverFailed', params };
  if (connected === endpoints.length) return { tone: 'ok', label: 'summary.connected', params };
  if (connected > 0) return { tone: 'warn', label: 'summary.partial', params };
  return { tone: 'busy', label: 'summary.connecting', params };
}
