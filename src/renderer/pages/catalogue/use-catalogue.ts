import { useEffect, useEffectEvent, useMemo, useState } from 'react';

import type { Catalogue } from '../../../shared/catalogue';
import type { HostInfo } from '../../../shared/host';
import { type MirrorUrls, mirrorUrls, presetInUse } from '../../../shared/mirrors';
import { useApp } from '../../app-context';
import { useStore } from '../../store/bridge-store';

/**
 * The windows (by their bridge API) that said once that the built-in catalogue is shown (the registry could
 * not be reached). Kept per store, not in one flag: a flag outlived its window and silenced the next.
 */
const offlineNoteShown = new WeakSet<object>();

/** The note's own hook: marks this window as told once the note has been shown. */
export function useOfflineNoteShown(): void {
  const { store } = useApp();
  useEffect(() => {
    offlineNoteShown.add(store.api);
  }, [store.api]);
}

/** What the catalogue is showing now, each a state a person is told of in its own words. */
export type CatalogueView =
  | { state: 'loading' }
  /** The list is here; `offline` when the online directory could not be read (the list that came with the app). */
  | { state: 'ready'; catalogue: Catalogue; offline: 'none' | 'quiet' | 'warn' };

/**
 * The catalogue dialog's state: the list (asked for on opening, refreshed when stale or on request),
 * this computer's runtimes (asked again on opening: one fetched since the window loaded is there now)
 * and the download sources in use ('official' when they are the official ones).
 */
export function useCatalogue() {
  const { store } = useApp();
  const mirrors = useStore(store, (d) => d.settings?.mirrors);
  const loadedHost = useStore(store, (d) => d.host);
  const unchosen = loadedHost?.unchosenMirrors ?? 'default';
  const sources = useMemo<MirrorUrls | 'official'>(
    () => (mirrors && presetInUse(mirrors, unchosen) !== 'default' ? mirrorUrls(mirrors, unchosen) : 'official'),
    [mirrors, unchosen],
  );
  const [freshHost, setFreshHost] = useState<HostInfo | undefined>();
  const [catalogue, setCatalogue] = useState<Catalogue | undefined>();
  const [refreshing, setRefreshing] = useState(false);
  // A refresh the user asked for that failed is worth a warning; the automatic one on opening is not (offline, or in mainland China, every time).
  const [asked, setAsked] = useState(false);
  const [quietNote] = useState(() => !offlineNoteShown.has(store.api));

  const refresh = async (mode: 'ifStale' | 'now') => {
    setRefreshing(true);
    if (mode === 'now') setAsked(true);
    try {
      setCatalogue(await store.api.getCatalogue({ refresh: mode }));
    } catch {
      // The list we have stays; the note says it may be old.
    } finally {
      setRefreshing(false);
    }
  };
  const refreshIfStale = useEffectEvent(() => void refresh('ifStale'));
  useEffect(() => {
    let live = true;
    const readHost = () =>
      store.api.getHostInfo().then(
        (info) => live && setFreshHost(info),
        () => undefined,
      );
    void readHost();
    // A runtime downloaded from here (Download uv) changes what the entries say they need.
    const unsubscribe = store.api.on('runtimeFetch', (event) => event.state === 'done' && void readHost());
    return () => {
      live = false;
      unsubscribe();
    };
  }, [store]);
  useEffect(() => {
    let live = true;
    void store.api.getCatalogue({}).then((c) => {
      if (!live) return;
      setCatalogue(c);
      refreshIfStale();
    });
    return () => {
      live = false;
    };
  }, [store]);

  const view: CatalogueView = !catalogue
    ? { state: 'loading' }
    : { state: 'ready', catalogue, offline: !catalogue.refreshError ? 'none' : asked ? 'warn' : quietNote ? 'quiet' : 'none' };
  return { view, host: freshHost ?? loadedHost, sources, refreshing, refreshNow: () => void refresh('now') };
}
