import type { EndpointStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';
import { overBudget } from './budget';
import { StatusBadge } from './ui';

/**
 * "12 tools", its size and pages in the tooltip; said in full, in the warning colour, when over the
 * budget (where the size is the reason).
 */
export function ServedCount({ endpoint }: { endpoint: EndpointStatus }) {
  const { store, t } = useApp();
  const limits = useStore(store, (d) => d.settings?.limits);
  const served = endpoint.served;
  if (!served) return null;
  // Automatic mode searches past the budget by itself: only a choice of every tool can be over it.
  const over = (served.chosen ?? served.mode) === 'all' && overBudget(served, limits);
  const size = t('served.size', { size: formatBytes(served.bytes), pages: served.pages });
  return (
    <span className={`small served-count${over ? ' is-over' : ''}`} title={size}>
      {t('served.summary', { count: served.toolCount })}
      {over ? ` · ${size}` : null}
      {over ? (
        <>
          {' '}
          <StatusBadge tone="warn">{t('served.overBudgetShort')}</StatusBadge>
        </>
      ) : null}
    </span>
  );
}
