import { useEffect, useState } from 'react';

import type { EventName, EventPayload } from '../../shared/bridge-api';
import { useApp } from '../app-context';

type ListEvent = 'confirmations' | 'elicitations';

/**
 * A list the bridge sends whole on an event (the calls waiting for Allow or Deny, the servers'
 * questions): read once when shown, then kept from the events, so nothing is polled. An event
 * that arrives before the first read's answer is newer than it.
 */
export function useLiveList<K extends ListEvent & EventName>(event: K, read: 'getConfirmations' | 'getElicitations'): EventPayload<K> {
  const { store } = useApp();
  const [list, setList] = useState<EventPayload<K>>([] as EventPayload<K>);
  useEffect(() => {
    let live = true;
    let heard = false;
    const off = store.api.on(event, (payload) => {
      heard = true;
      setList(payload);
    });
    void (store.api[read]() as Promise<EventPayload<K>>).then((payload) => {
      if (live && !heard) setList(payload);
    });
    return () => {
      live = false;
      off();
    };
  }, [store, event, read]);
  return list;
}
