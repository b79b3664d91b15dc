import type { ServedSummary } from '../../shared/served';
import type { Limits } from '../../shared/settings';

/** Whether an endpoint is served more than xiaozhi handles well (the user's budget in Settings). */
export function overBudget(served: ServedSummary | undefined, limits: Pick<Limits, 'budgetTools' | 'budgetBytes'> | undefined): boolean {
  if (!served || !limits) return false;
  return served.toolCount > limits.budgetTools || served.bytes > limits.budgetBytes;
}
