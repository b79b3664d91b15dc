import type { CallOutcome } from '../../shared/status';
import { useApp } from '../app-context';
import { StatusBadge } from './ui';

/** How one tool call ended, as a badge: the call lists on the overview and the history page. */
export function OutcomeBadge({ outcome }: { outcome: CallOutcome }) {
  const { t } = useApp();
  const tone = outcome === 'ok' ? 'ok' : outcome === 'cancelled' ? 'off' : outcome === 'held' ? 'warn' : 'bad';
  return <StatusBadge tone={tone}>{t(`outcome.${outcome}`)}</StatusBadge>;
}
