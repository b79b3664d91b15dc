import path from 'node:path';

import type { Translate } from '../../shared/i18n/translate';
import { DEFAULT_TOOL_SET } from '../../shared/settings';
import { runtimesAwaited, stepAwaited } from '../../shared/sign-in-status';
import type { BridgeState, EndpointStatus } from '../../shared/status';
import { summarizeStatus, type SummaryIcon, takenByOther } from '../../shared/status-summary';
import type { UpdateStatus } from '../../shared/updates';

export type TrayIconState = SummaryIcon;

/** The icon tells the whole story at a glance: the same summary the window's sidebar shows. */
export function trayIconState(state: BridgeState): TrayIconState {
  return summarizeStatus(state).icon;
}

/** The summary's worst news first, then the rest, one line as the window says it. */
export function trayTooltip(state: BridgeState, t: Translate): string {
  const summary = summarizeStatus(state);
  const lines = [summary.headline, ...summary.lines.filter((l) => l !== summary.headline)];
  return [t('app.name'), ...lines.map((l) => t(l.key, l.params))].join(' · ');
}

export function endpointLine(endpoint: EndpointStatus, t: Translate, now = Date.now()): string {
  const name = endpoint.name;
  switch (endpoint.state) {
    case 'connected':
      return t('tray.endpoint.connected', { name });
    case 'connecting':
      return t('tray.endpoint.connecting', { name });
    case 'waiting':
      if (takenByOther(endpoint)) return t('tray.endpoint.replaced', { name });
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
  | {
      kind: 'action';
      id: 'start' | 'stop' | 'open' | 'openLogs' | 'quit' | 'checkUpdates' | 'installUpdate' | 'openUpdatePage';
      label: string;
    }
  | { kind: 'checkbox'; id: 'launchAtLogin'; label: string; checked: boolean; enabled: boolean };

/** What the menu says about updates: the action the status calls for, and a line when there is news. */
export function updateItems(update: UpdateStatus | undefined, t: Translate): TrayMenuItem[] {
  if (!update || update.state === 'unsupported') return [];
  switch (update.state) {
    case 'ready':
      return [{ kind: 'action', id: 'installUpdate', label: t('updates.restartTo', { version: update.version ?? '' }) }];
    case 'manual':
      return [{ kind: 'action', id: 'openUpdatePage', label: t('updates.getVersion', { version: update.version ?? '' }) }];
    case 'downloading':
      return [{ kind: 'label', label: t('updates.downloading', { version: update.version ?? '', percent: update.percent ?? 0 }) }];
    case 'checking':
      return [{ kind: 'label', label: t('updates.checking') }];
    default:
      return [
        ...(update.state === 'up-to-date'
          ? [{ kind: 'label' as const, label: t('updates.upToDate', { version: update.currentVersion }) }]
          : []),
        ...(update.state === 'error' ? [{ kind: 'label' as const, label: t('updates.failedShort') }] : []),
        { kind: 'action', id: 'checkUpdates', label: t('updates.check') },
      ];
  }
}

/** The menu as data (so it can be tested without Electron): one line per endpoint, then actions. */
export function trayMenu(state: BridgeState, launchAtLogin: boolean | null, t: Translate, update?: UpdateStatus): TrayMenuItem[] {
  const items: TrayMenuItem[] = [];
  if (state.endpoints.length === 0) items.push({ kind: 'label', label: t('tray.noEndpoints') });
  for (const endpoint of state.endpoints) items.push({ kind: 'label', label: withToolSet(endpointLine(endpoint, t), endpoint, state, t) });
  const enabled = state.servers.filter((s) => s.enabled);
  const signIn = enabled.filter((s) => stepAwaited(s) === 'signIn').length;
  const runtime = enabled.filter((s) => stepAwaited(s) === 'runtime').length;
  const failed = enabled.filter((s) => s.state === 'failed').length - signIn - runtime;
  if (failed > 0) items.push({ kind: 'label', label: t('tray.serversFailed', { count: failed }) });
  // Trying again by itself, named as the window names it (正在重试), not left out as if all were well.
  const retrying = enabled.filter((s) => s.state === 'restarting').length;
  if (retrying > 0) items.push({ kind: 'label', label: t('summary.servers.restarting', { count: retrying }) });
  if (signIn > 0) items.push({ kind: 'label', label: t('summary.servers.needSignIn', { count: signIn }) });
  if (runtime > 0)
    items.push({
      kind: 'label',
      label: t('summary.servers.needRuntime', { count: runtime, runtime: runtimesAwaited(enabled).join(', ') }),
    });
  items.push({ kind: 'separator' });
  items.push(
    state.running ? { kind: 'action', id: 'stop', label: t('tray.stop') } : { kind: 'action', id: 'start', label: t('tray.start') },
  );
  items.push({ kind: 'action', id: 'open', label: t('tray.open') });
  items.push({ kind: 'separator' });
  items.push({
    kind: 'checkbox',
    id: 'launchAtLogin',
    label: t('tray.launchAtLogin'),
    checked: launchAtLogin === true,
    enabled: launchAtLogin !== null,
  });
  items.push({ kind: 'action', id: 'openLogs', label: t('tray.openLogs') });
  items.push(...updateItems(update, t));
  items.push({ kind: 'separator' });
  items.push({ kind: 'action', id: 'quit', label: t('tray.quit') });
  return items;
}

/** macOS wants black-and-alpha template images; elsewhere the coloured ones. @2x is picked up automatically. */
export function trayIconPath(assetsDir: string, state: TrayIconState, platform: NodeJS.Platform): string {
  return path.join(assetsDir, 'tray', platform === 'darwin' ? `${state}Template.png` : `${state}.png`);
}
