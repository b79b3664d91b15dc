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
