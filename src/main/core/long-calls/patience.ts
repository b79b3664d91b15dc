import { isXiaozhiMe } from '../../../shared/endpoint-url';
import type { EndpointSettings } from '../../../shared/settings';

/** How long xiaozhi.me waits for a tool call (its maintainer, August 2026). */
export const XIAOZHI_ME_PATIENCE_S = 300;
/** xiaozhi-esp32-server's client default. */
export const SELF_HOSTED_PATIENCE_S = 30;
/** The margin is a fifth of the patience, at most this: room for the network and a busy machine. */
const MAX_MARGIN_S = 15;

/** The caller's patience in seconds: the setting, or what the URL says (api.xiaozhi.me, else self-hosted). */
export function patienceSeconds(endpoint: Pick<EndpointSettings, 'url' | 'patience'>): number {
  const patience = endpoint.patience ?? (isXiaozhiMe(endpoint.url) ? 'xiaozhi.me' : 'self-hosted');
  if (patience === 'xiaozhi.me') return XIAOZHI_ME_PATIENCE_S;
  if (patience === 'self-hosted') return SELF_HOSTED_PATIENCE_S;
  return patience;
}

/** When the bridge answers a call still running: the patience less a margin (30 s: 24 s; 300 s: 285 s). */
export function answerAfterMs(endpoint: Pick<EndpointSettings, 'url' | 'patience'>): number {
  const seconds = patienceSeconds(endpoint);
  return Math.round((seconds - Math.min(MAX_MARGIN_S, seconds / 5)) * 1000);
}
