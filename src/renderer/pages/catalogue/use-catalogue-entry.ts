import { useEffect, useState } from 'react';

import type { CatalogueEntry } from '../../../shared/catalogue';
import { useApp } from '../../app-context';

/**
 * The catalogue entry a server came from (`catalogue` in its settings), read from the list held
 * (no network): undefined while it is read, null when there is none (not from the catalogue, or an
 * entry the list no longer has).
 */
export function useCatalogueEntry(id: string | undefined): CatalogueEntry | null | undefined {
  const { store } = useApp();
  const [entry, setEntry] = useState<CatalogueEntry | null | undefined>(id ? undefined : null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    store.api.getCatalogue({ refresh: 'never' }).then(
      (catalogue) => live && setEntry(catalogue.entries.find((e) => e.id === id) ?? null),
      () => live && setEntry(null),
    );
    return () => {
      live = false;
    };
  }, [store, id]);
  return id ? entry : null;
}
