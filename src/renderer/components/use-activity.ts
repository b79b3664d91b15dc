import { useEffect, useState } from 'react';

import type { ActivitySample } from '../../shared/activity';
import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';

/**
 * The calls of the last week or so, kept across restarts (the activity record in the app's folder):
 * what the Activity page and the overview both count, so they say one number. Read again when a
 * call comes in (the store counts them), a moment later. Undefined until first read.
 */
export function useActivitySamples(): ActivitySample[] | undefined {
  const { store } = useApp();
  const calls = useStore(store, (d) => d.history.length);
  const [samples, setSamples] = useState<ActivitySample[] | undefined>();
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      store.api.getActivity().then(
        (list) => live && setSamples(list),
        () => live && setSamples((s) => s ?? []),
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [store, calls]);
  return samples;
}

/** The first time this run's history holds (Infinity with none): kept calls before it are not in the history. */
export const historyStart = (history: readonly { time: number }[]): number =>
  history.length > 0 ? Math.min(...history.map((h) => h.time)) : Infinity;

/** The kept calls from before this run's history: counted on the Activity page, not listed in History. */
export const callsBeforeHistory = (history: readonly { time: number }[], samples: readonly ActivitySample[] | undefined): number => {
  const before = historyStart(history);
  return samples?.filter((s) => s.time < before).length ?? 0;
};
