import type { CallOutcome } from '../../shared/status';
import { useApp } from '../app-context';
import { StatusBadge } from './ui';

/** How one tool call ended, as a badge: the call lists on the overview and the history page. */
export function OutcomeBadge({ outcome }: { outcome: CallOutcome }) {
  const { t } = useApp();
  const tone = outcome === 'ok' ? 'ok' : outcome === 'cancelled' ? 'off' : outcome === 'held' || outcome === 'errorText' ? 'warn' : 'bad';
  // An answer that reads as an error message is amber, not red: the server did answer, and xiaozhi heard it.
  if (outcome === 'errorText')
    return (
      <span title={t('outcome.errorText.hint')}>
        <StatusBadge tone={tone}>{t('outcome.errorText')}</StatusBadge>
      </span>
    );
  return <StatusBadge tone={tone}>{t(`outcome.${outcome}`)}</StatusBadge>;
}
