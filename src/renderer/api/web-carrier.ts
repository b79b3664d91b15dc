import type { CommandName, EventName } from '../../shared/bridge-api';
import type { BridgeCarrier } from '../../shared/bridge-client';

/** Messages of the headless bridge's WebSocket carrier. */
export type WebRequest = { id: number; command: CommandName; input?: unknown };
export type WebReply = { id: number; output?: unknown; error?: string } | { event: EventName; payload: unknown };

/**
 * The BridgeApi carrier of the headless web UI: one WebSocket, requests matched by id, events
 * pushed by the server. It reconnects by itself; calls made while down wait for the connection.
 */
export function webSocketCarrier(
  url: string,
  onConnectionChange: (connected: boolean) => void = () => undefined,
  access?: { checkUrl: string; onRefused: () => void },
): BridgeCarrier {
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const queue: WebRequest[] = [];
  let socket: WebSocket | undefined;
  let nextId = 1;
  let delay = 500;

  const connect = () => {
    const ws = new WebSocket(url);
    let opened = false;
    socket = ws;
    ws.onopen = () => {
      opened = true;
      delay = 500;
      onConnectionChange(true);
      for (const request of queue.splice(0)) ws.send(JSON.stringify(request));
    };
    ws.onmessage = (message) => {
      let reply: WebReply;
      try {
        reply = JSON.parse(String(message.data)) as WebReply;
      } catch {
        return;
      }
      if ('event' in reply) {
        for (const listener of listeners.get(reply.event) ?? []) listener(reply.payload);
        return;
      }
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      pending.delete(reply.id);
      if (reply.error !== undefined) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.output);
    };
    ws.onclose = () => {
      onConnectionChange(false);
      for (const [id, waiter] of pending) {
        waiter.reject(new Error('The connection to the bridge was lost.'));
        pending.delete(id);
      }
      const retry = () => {
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 10_000);
      };
      // Refused before it opened: a token of a previous run never becomes valid again; anything else (down, restarting) is retried.
      if (opened || !access) return retry();
      fetch(access.checkUrl, { cache: 'no-store' }).then((response) => (response.status === 401 ? access.onRefused() : retry()), retry);
    };
  };
  connect();

  return {
    invoke(command, input) {
      return new Promise((resolve, reject) => {
        const request: WebRequest = { id: nextId++, command, ...(input === undefined ? {} : { input }) };
        pending.set(request.id, { resolve, reject });
        if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(request));
        else queue.push(request);
      });
    },
    subscribe(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  };
}
