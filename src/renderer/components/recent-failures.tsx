import { type ActivitySample, recentFailures } from '../../shared/activity';
import { useApp } from '../app-context';

/**
 * A calm word on the overview when a good share of the last hour's calls failed (at least 3, a third
 * of them): how many, and the way to them. One failure says nothing here: History and Activity hold it.
 */
export function RecentFailures({ samples, now }: { samples: readonly ActivitySample[] | undefined; now: number }) {
  const { t } = useApp();
  const recent = samples ? recentFailures(samples, now) : undefined;
  if (!recent) return null;
  return (
    <p className="notice notice-warn recent-failures" role="status">
      {t('overview.recentFailures', recent)} <a href="#/history?failed">{t('overview.viewFailed')}</a>
    </p>
  );
}
