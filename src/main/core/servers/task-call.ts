import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  McpError,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

import { type CallSignal, toAbortSignal } from '../io/call-signal';

/** How often a task is asked about: the server's pollInterval, within these bounds. */
const POLL_MS = { min: 100, max: 5000, default: 1000 };
/** A task is kept on the server this long after it ends (we read its result at once). */
const TASK_TTL_MS = 10 * 60_000;

export interface TaskCallOptions {
  signal?: CallSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Each request (the call, each poll, the result) within this. */
  requestTimeoutMs: number;
  /** The whole task within this: past it, the server is told to cancel it. */
  totalTimeoutMs: number;
}

/** True when the server takes `tools/call` as a task and this tool may or must be one (MCP 2025-11-25). */
export function callsAsTask(client: Client | undefined, tool: Tool | undefined): boolean {
  const support = tool?.execution?.taskSupport;
  if (support !== 'required' && support !== 'optional') return false;
  return client?.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/**
 * A tool called as an MCP task: `tools/call` with `task` creates it, `tasks/get` is polled (its
 * status message passed on as progress), `tasks/result` brings its result; a cancelled call, or one
 * past its time, is cancelled on the server with `tasks/cancel`. (The SDK's `callToolStream` polls
 * too, but neither cancels the task on abort nor bounds it as a whole.)
 */
export async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<CallToolResult> {
  const signal = options.signal ? toAbortSignal(options.signal) : undefined;
  // The SDK never removes the abort listener a request adds to its signal: only the call and the result
  // take it, the polls (hundreds in a long task) do without (the pause between them watches it).
  const request = { timeout: options.requestTimeoutMs };
  const created = await client.request({ method: 'tools/call', params: { name, arguments: args } }, CreateTaskResultSchema, {
    ...request,
    ...(signal ? { signal } : {}),
    task: { ttl: TASK_TTL_MS },
    ...(options.onProgress ? { onprogress: options.onProgress } : {}),
  });
  const { taskId } = created.task;
  const deadline = Date.now() + options.totalTimeoutMs;
  let pollMs = created.task.pollInterval ?? POLL_MS.default;
  let lastMessage = created.task.statusMessage;
  let polls = 0;
  const cancelOnServer = () =>
    void client.experimental.tasks.cancelTask(taskId, { timeout: options.requestTimeoutMs }).catch(() => undefined);
  try {
    // Bounded: every turn waits at least POLL_MS.min, and the deadline ends the loop.
    for (;;) {
      await pause(Math.min(POLL_MS.max, Math.max(POLL_MS.min, pollMs)), signal);
      if (Date.now() > deadline) {
        cancelOnServer();
        throw new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: options.totalTimeoutMs });
      }
      const task = await client.experimental.tasks.getTask(taskId, request);
      signal?.throwIfAborted();
      pollMs = task.pollInterval ?? pollMs;
      if (task.statusMessage && task.statusMessage !== lastMessage) {
        lastMessage = task.statusMessage;
        options.onProgress?.({ progress: ++polls, message: task.statusMessage });
      }
      if (task.status === 'working') continue;
      if (task.status === 'cancelled')
        throw new McpError(ErrorCode.InternalError, `the server cancelled the task${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
      // completed and failed carry their result; input_required is answered through tasks/result too (it blocks until the end).
      const result = client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { ...request, ...(signal ? { signal } : {}) });
      return (await result) as CallToolResult;
    }
  } catch (error) {
    if (signal?.aborted) cancelOnServer();
    throw error;
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
    };
    const aborted = () => {
      done();
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
