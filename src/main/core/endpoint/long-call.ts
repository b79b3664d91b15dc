import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';

import { resultText } from '../hub/result-shaping';
import type { CallAbort } from '../io/call-signal';
import type { BackgroundCalls, TaskState, WatchedCall } from '../long-calls/background-calls';
import type { ToolCallRequest } from './endpoint-calls';

/**
 * A call of an endpoint watched for its caller's patience. Its entry among the background calls
 * (task, entry, cancel hook) is made only when first needed: progress to show, patience over, a
 * server's question, the connection lost. Nearly every call ends long before, and making them for
 * each cost a handful of objects per call.
 */
export class LongCall {
  private watchedCall: WatchedCall | undefined;
  /** The caller got "still working": the call's own end sends nothing more. */
  answered = false;
  /** Cancelled by the user (the built-in tool, the window), not by the endpoint. */
  cancelledHere = false;
  /** Read by the history when the call ends: the task id it went on as, and whether its connection had closed. */
  readonly background: { id?: string; disconnected?: boolean } = {};
  /** The tool the task is named after (until watched; then the watch holds it). */
  private toolName: string;
  /** When the call started, as the task list shows it (Date.now()). */
  private readonly startedAt: number;
  /** Its result came: progress after it (a late notification) makes no entry. */
  private ended = false;

  constructor(
    readonly request: ToolCallRequest,
    readonly controller: CallAbort,
    private readonly calls: BackgroundCalls,
    private readonly caller: string,
    private readonly owner: string,
    /** performance.now() when its caller's patience is nearly over: it is answered then, if still running. */
    readonly due: number,
  ) {
    this.toolName = request.params.name;
    this.startedAt = calls.now();
  }

  get tool(): string {
    return this.watchedCall?.tool ?? this.toolName;
  }

  /** Its entry among the background calls, made now if not yet. */
  watched(): WatchedCall {
    this.watchedCall ??= this.calls.watch(this.toolName, this.caller, (reason) => this.cancelHere(reason), this.owner, this.startedAt);
    return this.watchedCall;
  }

  /** Cancelled by the user: the built-in tool, or the window. */
  private cancelHere(reason: string): void {
    this.cancelledHere = true;
    this.controller.abort(reason);
  }

  rename(tool: string): void {
    if (this.watchedCall) this.watchedCall.rename(tool);
    else this.toolName = tool;
  }

  progress(progress: Progress): void {
    if (!this.ended) this.watched().progress(progress);
  }

  /** The call ended (its result, or why it failed); never watched, it was never listed and there is nothing to keep. */
  finish(state: Exclude<TaskState, 'running'>, outcome: CallToolResult | string): void {
    this.ended = true;
    const watched = this.watchedCall;
    // Only a task keeps its result's text: nearly every call ends without becoming one.
    if (watched) watched.finish(state, !watched.isTask ? '' : typeof outcome === 'string' ? outcome : resultText(outcome));
  }
}
