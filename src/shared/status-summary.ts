import type { MessageKey } from './i18n/translate';
import { runtimesAwaited, stepAwaited } from './sign-in-status';
import type { BridgeState, EndpointStatus } from './status';

export type SummaryTone = 'ok' | 'warn' | 'busy' | 'off' | 'bad';
export type SummaryIcon = 'connected' | 'partial' | 'connecting' | 'stopped' | 'error';

export interface SummaryLine {
  key: MessageKey;
  params: Record<string, number | string>;
  tone: SummaryTone;
}

/** The one status the sidebar, the overview and the tray tooltip all say. */
export interface StatusSummary {
  tone: SummaryTone;
  icon: SummaryIcon;
  /** The worst thing first; it is what a glance should read. */
  headline: SummaryLine;
  /** One line for the endpoints, one for the servers (none while stopped). */
  lines: SummaryLine[];
}

/** After this many failed tries in a row, an endpoint counts as "cannot connect", not "connecting". */
export const FAILING_ATTEMPTS = 3;

const rank: Record<SummaryTone, number> = { bad: 4, warn: 3, busy: 2, ok: 1, off: 0 };

/** Another program holds this endpoint (the relay replaced our connection with its): the link waits for it. */
export const takenByOther = (endpoint: Pick<EndpointStatus, 'lastErrorCause'>): boolean =>
  endpoint.lastErrorCause?.code.startsWith('endpoint.replaced') === true;

/** Failures that say the token is wrong: no retry will fix them, the user must copy the URL again. */
const TOKEN_REFUSALS = new Set(['endpoint.tokenRejected', 'http.unauthorized', 'http.forbidden']);

/** The endpoints' line: the sidebar's, the tray's, and the overview's headline while none is connected. */
export function endpointsLine(state: BridgeState): SummaryLine {
  const endpoints = state.endpoints.filter((e) => e.enabled);
  const total = endpoints.length;
  const connected = endpoints.filter((e) => e.state === 'connected').length;
  if (connected === total) return { key: 'summary.endpoints.connected', params: { connected, total }, tone: 'ok' };
  if (connected > 0) return { key: 'summary.endpoints.partial', params: { connected, total }, tone: 'warn' };
  const waiting = endpoints.filter((e) => e.state === 'waiting');
  // Trying again after a failure keeps the failure (the link keeps it until a connection opens).
  const trying = endpoints.filter((e) => e.state === 'waiting' || e.state === 'connecting');
  // Another program holds the endpoint: nothing broke here, and the link waits for it (no count of failures).
  if (trying.some(takenByOther)) return { key: 'summary.endpoints.replaced', params: { total }, tone: 'warn' };
  // A refused token stays refused: said as that from the first refusal, everywhere, also while it tries again.
  if (trying.length > 0 && trying.every((e) => TOKEN_REFUSALS.has(e.lastErrorCause?.code ?? '')))
    return { key: 'summary.endpoints.tokenRefused', params: { total }, tone: 'bad' };
  const attempts = Math.max(0, ...waiting.map((e) => e.attempts));
  if (waiting.length > 0 && attempts >= FAILING_ATTEMPTS)
    return { key: 'summary.endpoints.failing', params: { attempts, total }, tone: 'bad' };
  if (waiting.length > 0) return { key: 'summary.endpoints.retrying', params: { attempts, total }, tone: 'busy' };
  return { key: 'summary.endpoints.connecting', params: { total }, tone: 'busy' };
}

/** Some server is switched on: the tools xiaozhi reads are more than the app's own. */
export const hasServers = (state: BridgeState): boolean => state.servers.some((s) => s.enabled);

/** The tools the user's servers provide: the app's own (search, confirm, tasks) are not counted; with no server, none are. */
export function userToolCount(state: BridgeState): number {
  return hasServers(state) ? Math.max(0, state.catalog.toolCount - (state.catalog.appTools ?? 0)) : 0;
}

function serversLine(state: BridgeState): SummaryLine {
  const servers = state.servers.filter((s) => s.enabled);
  const total = servers.length;
  const running = servers.filter((s) => s.state === 'running').length;
  // A server that waits for a sign-in or a runtime's download is not counted as failed: nothing broke, the user has a step to take.
  const signIn = servers.filter((s) => stepAwaited(s) === 'signIn').length;
  const runtime = servers.filter((s) => stepAwaited(s) === 'runtime').length;
  const count = (s: string) => servers.filter((x) => x.state === s).length - (s === 'failed' ? signIn + runtime : 0);
  const tools = userToolCount(state);
  if (count('failed') > 0) return { key: 'summary.servers.failed', params: { count: count('failed'), running, total }, tone: 'bad' };
  if (signIn > 0) return { key: 'summary.servers.needSignIn', params: { count: signIn, running, total }, tone: 'warn' };
  if (runtime > 0)
    return {
      key: 'summary.servers.needRuntime',
      params: { count: runtime, runtime: runtimesAwaited(servers).join(', '), running, total },
      tone: 'warn',
    };
  if (count('restarting') > 0)
    // Trying again by itself is news, not an alarm (its card says when the next try is): said calmly.
    return { key: 'summary.servers.restarting', params: { count: count('restarting'), running, total }, tone: 'busy' };
  if (count('starting') > 0) return { key: 'summary.servers.starting', params: { count: count('starting'), running, total }, tone: 'busy' };
  return { key: 'summary.servers.running', params: { running, total, tools }, tone: total === 0 ? 'off' : 'ok' };
}

export function summarizeStatus(state: BridgeState): StatusSummary {
  if (!state.running) {
    const line: SummaryLine = { key: 'summary.stopped', params: {}, tone: 'off' };
    return { tone: 'off', icon: 'stopped', headline: line, lines: [] };
  }
  // No server yet is not news worth a line.
  const servers = state.servers.some((s) => s.enabled) ? [serversLine(state)] : [];
  if (!state.endpoints.some((e) => e.enabled)) {
    const line: SummaryLine = { key: 'summary.noEndpoint', params: {}, tone: 'off' };
    return { tone: 'off', icon: 'stopped', headline: line, lines: [line, ...servers] };
  }
  const endpoints = endpointsLine(state);
  const lines = [endpoints, ...servers];
  // A server that is merely absent (no servers yet) does not make the endpoints' news worse.
  const worst = lines.reduce((a, b) => (rank[b.tone] > rank[a.tone] ? b : a));
  const tone = worst.tone === 'off' ? endpoints.tone : worst.tone;
  const icon: SummaryIcon = tone === 'bad' ? 'error' : tone === 'warn' ? 'partial' : tone === 'busy' ? 'connecting' : 'connected';
  return { tone, icon, headline: worst, lines };
}
