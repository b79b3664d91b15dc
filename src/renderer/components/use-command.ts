import { useCallback } from 'react';

import { useApp } from '../app-context';

/** Runs a change through the api, re-reads the settings, and shows any failure as a toast. Resolves to whether it worked. */
export function useCommand(): (action: () => Promise<unknown>) => Promise<boolean> {
  const { store, toast } = useApp();
  return useCallback(
    async (action) => {
      try {
        await action();
        await store.refreshSettings();
        return true;
      } catch (error) {
        toast((error as Error).message, 'error');
        return false;
      }
    },
    [store, toast],
  );
}
