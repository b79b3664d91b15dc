import path from 'node:path';
import type { BridgeState, EndpointStatus } from '../../shared/status';
import type { Translate } from '../../shared/i18n/translate';
import { DEFAULT_TOOL_SET } from '../../shared/settings';

export type TrayIconState = 'connected' | 'partial' | 'connecting' | 'stopped' | 'error';

/** After this many failed tries in a row, an endpoint counts as "cannot connect" (error icon). */
const FAILING_ATTEMPTS = 3;

/** The icon tells the whole story at a glance; a failed server outranks everything but "stopped". */
export function trayIconState(state: BridgeState): TrayIconState {
  const endpoints = state.endpoints.filter((e) => e.enabled);
  if (!state.running || endpoints.length === 0) return 'stopped';
  if (state.servers.some((s) => s.enabled && s.state === 'failed')) return 'error';
  const connected = endpoints.filter((e) => e.state === 'connected').length;
  if (connected === endpoints.length) return 'connected';
  if (connected > 0) return 'partial';
  if (endpoints.every((e) => e.state === 'waiting' && e.attempts >= FAILING_ATTEMPTS)) return 'error';
  return 'connecting';
}

export function trayTooltip(state: BridgeState, t: Translate): string {
  const app = t('app.name');
  if (!state.running) return t('tray.tooltip.stopped', { app });
  const endpoints = state.endpoints.filter((e) => e.enabled);
  if (endpoints.length === 0) return t('tray.tooltip.noEndpoint', { app });
  return t('tray.tooltip', {
    app,
    connected: endpoints.filter((e) => e.state === 'connected').length,
    total: endpoints.length,
    servers: state.servers.filter((s) => s.state === 'running').length,
    tools: state.catalog.toolCount,
  });
}

export function endpointLine(endpoint: EndpointStatus, t: Translate, now = Date.now()): string {
  const name = endpoint.name;
  switch (endpoint.state) {
    case 'connected':
      return t('tray.endpoint.connected', { name });
    case 'connecting':
      return t('tray.endpoint.connecting', { name });
    case 'waiting':
      return t('tray.endpoint.waiting', { name, seconds: Math.max(0, Math.ceil(((endpoint.retryAt ?? now) - now) / 1000)) });
    case 'disabled':
      return t('tray.endpoint.disabled', { name });
    default:
      return t('tray.endpoint.disconnected', { name });
  }
}

/** "kitchen: connected · tools: Kitchen": which set an endpoint serves (the default set by its translated name). */
function withToolSet(line: string, endpoint: EndpointStatus, state: BridgeState, t: Translate): string {
  const set = state.toolSets?.find((s) => s.id === endpoint.toolSet);
  if (!set) return line;
  return t('tray.endpoint.toolSet', { line, set: set.id === DEFAULT_TOOL_SET ? t('toolSets.default') : set.name });
}

export type TrayMenuItem =
  | { kind: 'label'; label: string }
  | { kind: 'separator' }
  | { kind: 'action'; id: 'start' | 'stop' | 'open' | 'openLogs' | 'quit'; label: string }
  | { kind: 'checkbox'; id: 'launchAtLogin'; label: string; checked: boolean; enabled: boolean };

/** The menu as data (so it can be tested without Electron): one line per endpoint, then actions. */
export function trayMenu(state: BridgeState, launchAtLogin: boolean | null, t: Translate): TrayMenuItem[] {
  const items: TrayMenuItem[] = [];
  if (state.endpoints.length === 0) items.push({ kind: 'label', label: t('tray.noEndpoints') });
  for (const endpoint of state.endpoints) items.push({ kind: 'label', label: withToolSet(endpointLine(endpoint, t), endpoint, state, t) });
  const failed = state.servers.filter((s) => s.enabled && s.state === 'failed').length;
  if (failed > 0) items.push({ kind: 'label', label: t('tray.serversFailed', { count: failed }) });
  items.push({ kind: 'separator' });
  items.push(state.running ? { kind: 'action', id: 'stop', label: t('tray.stop') } : { kind: 'action', id: 'start', label: t('tray.start') });
  items.push({ kind: 'action', id: 'open', label: t('tray.open') });
  items.push({ kind: 'separator' });
  items.push({ kind: 'checkbox', id: 'launchAtLogin', label: t('tray.launchAtLogin'), checked: launchAtLogin === true, enabled: launchAtLogin !== null });
  items.push({ kind: 'action', id: 'openLogs', label: t('tray.openLogs') });
  items.push({ kind: 'separator' });
  items.push({ kind: 'action', id: 'quit', label: t('tray.quit') });
  return items;
}

/** macOS wants black-and-alpha template images; elsewhere the coloured ones. @2x is picked up automatically. */
export function trayIconPath(assetsDir: string, state: TrayIconState, platform: NodeJS.Platform): string {
  return path.join(assetsDir, 'tray', platform === 'darwin' ? `${state}Template.png` : `${state}.png`);
}
