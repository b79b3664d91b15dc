import { useEffect, useMemo, useState } from 'react';

import type { CatalogueEntry } from '../../shared/catalogue';
import { useApp } from '../app-context';
import { type BridgeStore, useStore } from '../store/bridge-store';

type Titles = Map<string, CatalogueEntry['title']>;
/** The catalogue's titles, asked for once per window (every tool row names its server), not once per row. */
const asked = new WeakMap<BridgeStore, Promise<Titles>>();

function catalogueTitles(store: BridgeStore): Promise<Titles> {
  let titles = asked.get(store);
  if (!titles) {
    titles = store.api.getCatalogue({ refresh: 'never' }).then((catalogue) => new Map(catalogue.entries.map((e) => [e.id, e.title])));
    // A failed ask is asked again by the next page, not remembered.
    titles.catch(() => asked.delete(store));
    asked.set(store, titles);
  }
  return titles;
}

/**
 * A server's name as a person reads it: the catalogue's title in the window's language when the
 * server was added from the catalogue ("记忆（知识图谱）", not "memory"), else its own name. The
 * catalogue is asked for once per window, and only when some server came from it.
 */
export function useServerTitle(): (name: string) => string {
  const { store, language } = useApp();
  const servers = useStore(store, (d) => d.settings?.servers);
  const fromCatalogue = useMemo(() => {
    const ids = new Map<string, string>();
    for (const server of servers ?? []) if ('catalogue' in server && server.catalogue) ids.set(server.name, server.catalogue);
    return ids;
  }, [servers]);
  const [titles, setTitles] = useState<Titles | undefined>();
  const wanted = fromCatalogue.size > 0 && titles === undefined;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    catalogueTitles(store).then(
      (found) => live && setTitles(found),
      // Without the catalogue, names stay as they are.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [store, wanted]);
  return useMemo(
    () => (name: string) => {
      const id = fromCatalogue.get(name);
      const title = id === undefined ? undefined : titles?.get(id);
      return title ? (language === 'zh-CN' ? title.zh : title.en) : name;
    },
    [fromCatalogue, titles, language],
  );
}
