import type { CallOutcome, CallRecord } from '../../../shared/status';
import { redactText } from './redact';

const MAX_TEXT = 2000;

export function trimText(text: string, max = MAX_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

export interface CallInput {
  caller: string;
  tool: string;
  originalTool: string;
  server: string;
  arguments: unknown;
  durationMs: number;
  outcome: CallOutcome;
  result: string;
}

/** Every tools/call, newest last, bounded; with per-tool counts that outlive the ring. */
export class CallHistory {
  private readonly records: CallRecord[] = [];
  private readonly counts = new Map<string, { ok: number; failed: number }>();
  private readonly listeners = new Set<(record: CallRecord) => void>();
  private nextId = 1;

  constructor(private readonly capacity = 1000) {}

  add(input: CallInput): CallRecord {
    let args: string;
    try {
      args = JSON.stringify(input.arguments ?? {});
    } catch {
      args = String(input.arguments);
    }
    const record: CallRecord = {
      id: this.nextId++,
      time: Date.now(),
      caller: input.caller,
      tool: input.tool,
      originalTool: input.originalTool,
      server: input.server,
      arguments: redactText(trimText(args)),
      durationMs: input.durationMs,
      outcome: input.outcome,
      result: redactText(trimText(input.result)),
    };
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
    const count = this.counts.get(input.tool) ?? { ok: 0, failed: 0 };
    if (input.outcome === 'ok') count.ok++;
    else count.failed++;
    this.counts.set(input.tool, count);
    for (const listener of this.listeners) listener(record);
    return record;
  }

  list(): CallRecord[] {
    return this.records.slice();
  }

  countsByTool(): Record<string, { ok: number; failed: number }> {
    return Object.fromEntries(this.counts);
  }

  subscribe(listener: (record: CallRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
