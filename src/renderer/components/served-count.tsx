import type { EndpointStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';
import { overBudget } from './budget';
import { StatusBadge } from './ui';

/** "12 tools · 3.4 KB in 1 page(s)", in the warning colour when over the budget. */
export function ServedCount({ endpoint }: { endpoint: EndpointStatus }) {
  const { store, t } = useApp();
  const limits = useStore(store, (d) => d.settings?.limits);
  const served = endpoint.served;
  if (!served) return null;
  // Automatic mode searches past the budget by itself: only a choice of every tool can be over it.
  const over = (served.chosen ?? served.mode) === 'all' && overBudget(served, limits);
  return (
    <span className={`small served-count${over ? ' is-over' : ''}`}>
      {t('served.summary', { count: served.toolCount, size: formatBytes(served.bytes), pages: served.pages })}
      {over ? (
        <>
          {' '}
          <StatusBadge tone="warn">{t('served.overBudgetShort')}</StatusBadge>
        </>
      ) : null}
    </span>
  );
}
