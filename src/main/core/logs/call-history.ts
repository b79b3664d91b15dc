import type { Problem } from '../../../shared/problem';
import { type CallConfirmation, type CallCount, type CallOutcome, type CallRecord, countedCall } from '../../../shared/status';
import { readsAsError } from './error-text';
import { redactText } from './redact';

const MAX_TEXT = 2000;
const MAX_NAME = 200;
/** The counts' key for calls of tools that do not exist. */
export const UNKNOWN_TOOL = '(unknown tool)';
/** Callers counted one by one; calls of any further caller are counted together under OTHER_CALLERS. */
export const MAX_CALLERS = 100;
export const OTHER_CALLERS = '(other callers)';

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
  /** The task id the call went on as, when its caller was answered before it ended. */
  task?: string;
  /** The connection it came on closed while it ran (it went on as `task`). */
  disconnected?: boolean;
  /** A call held for confirmation, and what became of it. */
  confirmation?: CallConfirmation;
  /** The id of the held row this record takes over (its outcome): one row per call, updated in place. */
  replaces?: number;
}

/**
 * Every tools/call, newest last, bounded; with per-tool counts that outlive the ring. Records are
 * redacted when someone reads them (or listens), not on the hot path of every call.
 */
export class CallHistory {
  private readonly records: CallRecord[] = [];
  private readonly clean = new WeakSet<CallRecord>();
  private head = 0;
  /** counts[server][originalTool]: keyed by the tool itself, since exposed names can change. */
  private readonly counts = new Map<string, Map<string, CallCount>>();
  /** Calls per caller (endpoint, local client, `ui`): who uses the tools, beyond the ring too. */
  private readonly byCaller = new Map<string, CallCount>();
  private readonly listeners = new Set<(record: CallRecord) => void>();
  /** Who takes every record as made, unredacted (the activity log keeps names and times only). */
  private readonly observers = new Set<(record: Readonly<CallRecord>) => void>();
  private nextId = 1;

  constructor(
    private readonly capacity = 1000,
    /** The engine's one redaction (known secret values and patterns). */
    private readonly redact: (text: string) => string = (text) => redactText(text),
    /** The cause a failed call's text names (no network, a key refused…), said first in the window; none when not given. */
    private readonly causeOf: (text: string) => Problem | undefined = () => undefined,
  ) {}

  add(input: CallInput): CallRecord {
    let args: string;
    try {
      args = JSON.stringify(input.arguments ?? {});
    } catch {
      args = String(input.arguments);
    }
    // A success whose text is an error message is not recorded as a success (what xiaozhi got is unchanged).
    const outcome: CallOutcome = input.outcome === 'ok' && readsAsError(input.result) ? 'errorText' : input.outcome;
    // Read only for failures, and from the text as the server wrote it (the window words it; xiaozhi gets the text).
    const cause = outcome === 'error' || outcome === 'errorText' ? this.causeOf(input.result) : undefined;
    const held = input.replaces === undefined ? undefined : this.indexOf(input.replaces);
    const record: CallRecord = {
      id: held === undefined ? this.nextId++ : (input.replaces as number),
      // The row keeps the time it was asked at; its duration is the run's.
      time: held === undefined ? Date.now() : (this.records[held] as CallRecord).time,
      caller: trimText(input.caller, MAX_NAME),
      // Names come from the caller: an unknown tool's may be anything, of any length.
      tool: trimText(input.tool, MAX_NAME),
      originalTool: trimText(input.originalTool, MAX_NAME),
      server: input.server,
      arguments: trimText(args),
      durationMs: input.durationMs,
      outcome,
      result: trimText(input.result),
    };
    // Set only when the call has them (spreads of conditional objects made three objects per call).
    if (input.task !== undefined) record.task = input.task;
    if (input.disconnected) record.disconnected = true;
    if (input.confirmation) record.confirmation = input.confirmation;
    if (cause) record.cause = cause;
    // A ring: dropping the oldest must not shift a thousand entries on every call.
    if (held !== undefined) this.records[held] = record;
    else if (this.records.length < this.capacity) this.records.push(record);
    else {
      this.records[this.head] = record;
      this.head = (this.head + 1) % this.capacity;
    }
    // A held call is a question to the user, not a call yet: its run (or denial) is counted when it comes.
    if (input.outcome !== 'held') this.count(input.server, input.originalTool, record.caller, outcome);
    for (const observer of this.observers) observer(record);
    if (this.listeners.size > 0) {
      const shown = this.redacted(record);
      for (const listener of this.listeners) listener(shown);
    }
    return record;
  }

  /** Where the record of this id is in the ring (a held row, answered within minutes: rarely far back). */
  private indexOf(id: number): number | undefined {
    for (let i = this.records.length - 1; i >= 0; i--) if (this.records[i]?.id === id) return i;
    return undefined;
  }

  /** Counted in place (a new count object per call, twice, was a tenth of the history's cost): copied when read. */
  private count(server: string, originalTool: string, caller: string, outcome: CallOutcome): void {
    let forServer = this.counts.get(server);
    if (forServer === undefined) this.counts.set(server, (forServer = new Map<string, CallCount>()));
    // Calls of tools no server has are counted together: one key per made-up name would grow forever.
    addTo(forServer, server === '' ? UNKNOWN_TOOL : originalTool, outcome);
    // Local clients name themselves: past MAX_CALLERS names, one key would be made per made-up name.
    addTo(this.byCaller, this.byCaller.has(caller) || this.byCaller.size < MAX_CALLERS ? caller : OTHER_CALLERS, outcome);
  }

  /** Oldest first. */
  list(): CallRecord[] {
    const ordered = this.head === 0 ? this.records : [...this.records.slice(this.head), ...this.records.slice(0, this.head)];
    return ordered.map((r) => this.redacted(r));
  }

  /**
   * Redacts every record not redacted yet, with the secrets known now: called before the known
   * secrets change (a rotated key must still be masked in calls made while it was the key).
   */
  redactAll(): void {
    for (const record of this.records) this.redacted(record);
  }

  private redacted(record: CallRecord): CallRecord {
    if (!this.clean.has(record)) {
      record.arguments = this.redact(record.arguments);
      record.result = this.redact(record.result);
      this.clean.add(record);
    }
    return record;
  }

  countsByTool(): Record<string, Record<string, CallCount>> {
    return Object.fromEntries([...this.counts].map(([server, tools]) => [server, copied(tools)]));
  }

  countsByCaller(): Record<string, CallCount> {
    return copied(this.byCaller);
  }

  /** Every record as it is made, before redaction: for who keeps no arguments or results. Returns the unsubscribe function. */
  observe(observer: (record: Readonly<CallRecord>) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  subscribe(listener: (record: CallRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function addTo(counts: Map<string, CallCount>, key: string, outcome: CallOutcome): void {
  const count = counts.get(key);
  if (count === undefined) counts.set(key, countedCall(undefined, outcome));
  else if (outcome === 'ok') count.ok++;
  else if (outcome === 'errorText') count.errorText++;
  else count.failed++;
}

/** The counts as they are now: the window's store keeps what it was given as it was. */
function copied(counts: Map<string, CallCount>): Record<string, CallCount> {
  return Object.fromEntries([...counts].map(([key, count]) => [key, { ...count }]));
}
