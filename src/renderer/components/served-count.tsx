import type { EndpointStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';
import { overBudget } from './budget';
import { userToolsOf } from './serving-sentence';
import { StatusBadge } from './ui';

/**
 * What xiaozhi gets, counted as the overview counts (the user's tools): "xiaozhi gets your 12 tools
 * directly", or in search mode the few tools it gets to find them, so the two numbers cannot seem to
 * disagree (issue 33). The size and pages in the tooltip; said in full, in the warning colour, when
 * over the budget (where the size is the reason).
 */
export function ServedCount({ endpoint }: { endpoint: EndpointStatus }) {
  const { store, t } = useApp();
  const limits = useStore(store, (d) => d.settings?.limits);
  const served = endpoint.served;
  // No tools of the person's yet: the sentence above says so; "your 0 tools" would only repeat it.
  if (!served || (served.mode === 'all' && userToolsOf(served) === 0)) return null;
  // Automatic mode searches past the budget by itself: only a choice of every tool can be over it.
  const over = (served.chosen ?? served.mode) === 'all' && overBudget(served, limits);
  const size = t('served.size', { size: formatBytes(served.bytes), pages: served.pages });
  return (
    <span className={`small served-count${over ? ' is-over' : ''}`} title={size}>
      {served.mode === 'router'
        ? t('names8.served.countRouter', { count: served.toolCount, user: userToolsOf(served) })
        : t('names8.served.countAll', { count: userToolsOf(served) })}
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
