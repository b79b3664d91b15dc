import { useApp } from '../app-context';
import type { CallOutcome } from '../../shared/status';
import { StatusBadge } from './ui';

/** How one tool call ended, as a badge: the call lists on the overview and the history page. */
export function OutcomeBadge({ outcome }: { outcome: CallOutcome }) {
  const { t } = useApp();
  return <StatusBadge tone={outcome === 'ok' ? 'ok' : outcome === 'cancelled' ? 'off' : 'bad'}>{t(`outcome.${outcome}`)}</StatusBadge>;
}
