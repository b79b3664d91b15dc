import type { MessageKey } from '../../shared/i18n/translate';
import type { EndpointState, EndpointStatus } from '../../shared/status';
import { takenByOther } from '../../shared/status-summary';
import type { Tone } from './ui';

export const endpointTone: Record<EndpointState, Tone> = {
  connected: 'ok',
  connecting: 'busy',
  waiting: 'warn',
  disconnected: 'off',
  disabled: 'off',
};
export const endpointLabel: Record<EndpointState, MessageKey> = {
  connected: 'state.connected',
  connecting: 'state.connecting',
  waiting: 'state.waiting',
  disconnected: 'state.disconnected',
  disabled: 'state.disabled',
};
/** An endpoint's badge: its state, or that another program holds it (the link waits for that one, nothing broke). */
export const endpointBadge = (endpoint: EndpointStatus): MessageKey =>
  takenByOther(endpoint) ? 'state.taken' : endpointLabel[endpoint.state];
