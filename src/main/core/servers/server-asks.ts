import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ErrorCode,
  ListRootsRequestSchema,
  type TaskStatusNotification,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** What a server may ask its client during a call (or, for roots, at any time). */
export type AskedMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/**
 * Where a server's requests to its client go: to the local client whose call it is serving (the
 * local MCP server's passthrough), or nowhere (undefined: no local call takes it).
 */
export interface ServerAsks {
  /** The answer to a server's request, or undefined when no local client's call is in flight to that server. */
  ask(server: string, method: AskedMethod, params: unknown, signal: AbortSignal): Promise<Record<string, unknown>> | undefined;
  /** A task's status, as the server told it (`notifications/tasks/status`). */
  taskStatus(server: string, params: TaskStatusNotification['params']): void;
}

type Elicit = (server: string, params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;

/**
 * An error our client answers a server's request with. The SDK sends an error's `message` as it is,
 * and an McpError's already starts "MCP error -32601: ": the server's own McpError would then say it
 * twice ("MCP error -32601: MCP error -32601: …"), as a tool's answer read it to xiaozhi.
 */
function refusal(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/** What our client tells servers it takes: everything a local client might answer, and the window's questions. */
export function askedCapabilities(elicit: Elicit | undefined, asks: ServerAsks | undefined): ClientCapabilities {
  return {
    ...(asks ? { sampling: {}, roots: { listChanged: true } } : {}),
    ...(elicit || asks ? { elicitation: { form: {}, ...(asks ? { url: {} } : {}) } } : {}),
  };
}

/**
 * Answers a server's requests on our client: a local client's call in flight takes them first;
 * otherwise an elicitation goes to the window or the voice (`elicit`), and sampling is not supported.
 */
export function installServerAsks(client: Client, server: string, elicit: Elicit | undefined, asks: ServerAsks | undefined): void {
  if (asks) {
    client.setRequestHandler(
      CreateMessageRequestSchema,
      (request, extra) =>
        (asks.ask(server, 'sampling/createMessage', request.params, extra.signal) ??
          Promise.reject(
            refusal(ErrorCode.MethodNotFound, 'sampling is only offered during a call by a local client that supports it'),
          )) as never,
    );
    client.setRequestHandler(
      ListRootsRequestSchema,
      (request, extra) => (asks.ask(server, 'roots/list', request.params, extra.signal) ?? Promise.resolve({ roots: [] })) as never,
    );
    client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => asks.taskStatus(server, notification.params));
  }
  if (elicit || asks)
    client.setRequestHandler(
      ElicitRequestSchema,
      (request, extra) =>
        (asks?.ask(server, 'elicitation/create', request.params, extra.signal) ??
          elicit?.(server, request.params, extra.signal) ??
          Promise.resolve({ action: 'decline' })) as never,
    );
}
