import type { Progress } from '@modelcontextprotocol/sdk/types.js';

import type { BackgroundTask } from '../../../shared/status';

/**
 * What is kept of calls answered before they finished: a few running at once (a call past this
 * many is awaited as before), a few finished ones, each result's text cut to a size, and none
 * older than an age (a result nobody asked for in half an hour is in the history anyway). Counts
 * are per endpoint (`running`, `finished`), so one endpoint's model starting call after call takes
 * its own oldest results and places, never another's; and for all of them (`…Overall`), past which
 * the endpoint holding the most gives up its oldest result.
 */
export const BACKGROUND_LIMITS = {
  running: 32,
  runningOverall: 64,
  finished: 20,
  finishedOverall: 60,
  resultChars: 8000,
  maxAgeMs: 30 * 60_000,
};

/** Progress events to the window at most this often per call (a server may report hundreds a second). */
const PROGRESS_EVERY_MS = 250;

/** A digit then a letter, neither easily misheard or misread (no 0/1, no I/O): "3F". 8 × 24 ids. */
const DIGITS = '23456789';
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

export type TaskState = BackgroundTask['state'];

interface Entry {
  task: BackgroundTask;
  /** Stops the call (the server is told: notifications/cancelled, or tasks/cancel for a task). */
  cancel: (reason: string) => void;
  /** Listed in the window (it reported progress, or it was answered before it finished). */
  shown: boolean;
  lastProgressEvent: number;
  /** Whose task it is: the endpoint's id (two endpoints may share a name), or the caller. */
  owner: string;
}

export interface BackgroundCallsOptions {
  /** What the window is shown passes through here (the model gets the text as the tool gave it). */
  redact?: (text: string) => string;
  now?: () => number;
}

/**
 * The bridge's long calls, whichever endpoint made them: one watched per call in progress, given
 * a short id when its caller is answered before it finishes ("still working… task 3F"), its result
 * kept until asked for (within the bounds), its progress and end told to the window.
 */
/** How many ids of tasks gone are kept from reuse: with the bounds on tasks kept, well under the 192 there are. */
const RETIRED_IDS = 64;

export class BackgroundCalls {
  private readonly entries = new Map<number, Entry>();
  /** Ids of tasks that left the list, newest last: not given again soon, or "task 3F?" could find another call. */
  private readonly retired: string[] = [];
  private readonly listeners = new Set<(task: BackgroundTask) => void>();
  private nextKey = 1;

  constructor(private readonly opts: BackgroundCallsOptions = {}) {}

  /** Called with each task that changed (redacted), `removed` when it leaves the list. */
  subscribe(listener: (task: BackgroundTask) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A call (started at `startedAt`, now if absent): nothing is shown until it reports progress or is answered before it ends. */
  watch(tool: string, caller: string, cancel: (reason: string) => void, owner: string = caller, startedAt = this.now()): WatchedCall {
    const task: BackgroundTask = { key: this.nextKey++, tool, caller, state: 'running', startedAt };
    const entry: Entry = { task, cancel, shown: false, lastProgressEvent: 0, owner };
    return new WatchedCall(this, entry);
  }

  /** Tasks in the list, newest first: every owner's (the window), or one owner's (the model: its endpoint's id). */
  list(owner?: string): BackgroundTask[] {
    this.prune();
    const out: BackgroundTask[] = [];
    for (const entry of this.entries.values()) if (entry.shown && (owner === undefined || entry.owner === owner)) out.push(entry.task);
    return out.sort((a, b) => b.startedAt - a.startedAt);
  }

  /** The window's list: results redacted. */
  shownList(): BackgroundTask[] {
    return this.list().map((task) => this.redacted(task));
  }

  /** A task by its short id, as a person may say or type it ("3f", "3 F", "task 3F"). */
  find(id: string, owner?: string): BackgroundTask | undefined {
    this.prune();
    const wanted = normaliseId(id);
    for (const entry of this.entries.values())
      if (entry.task.id === wanted && (owner === undefined || entry.owner === owner)) return entry.task;
    return undefined;
  }

  /** Cancels a running task; what it found: the task (its state says whether it was still running), or nothing. */
  cancel(id: string, owner?: string): BackgroundTask | undefined {
    const task = this.find(id, owner);
    if (!task) return undefined;
    const entry = this.entries.get(task.key);
    if (task.state === 'running') entry?.cancel('cancelled by the user');
    return task;
  }

  /** The window's cancel button: by the list's key (a call shown for its progress has no id yet). */
  cancelByKey(key: number): void {
    const entry = this.entries.get(key);
    if (entry?.task.state === 'running') entry.cancel('cancelled by the user');
  }

  /** Every running call is stopped (the bridge is stopping); the list is emptied. */
  clear(): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.task.state === 'running') entry.cancel('the bridge is stopping');
      this.remove(entry);
    }
  }

  // ---- for WatchedCall ----

  /** @internal */
  show(entry: Entry): void {
    if (!entry.shown) {
      entry.shown = true;
      this.entries.set(entry.task.key, entry);
    }
    this.emit(entry.task);
  }

  /** @internal A short id, unused among the tasks kept; undefined when too many run in the background (the owner's, or all). */
  assignId(owner: string): string | undefined {
    this.prune();
    let running = 0;
    let mine = 0;
    for (const other of this.entries.values())
      if (other.task.id !== undefined && other.task.state === 'running') {
        running++;
        if (other.owner === owner) mine++;
      }
    if (mine >= BACKGROUND_LIMITS.running || running >= BACKGROUND_LIMITS.runningOverall) return undefined;
    const used = new Set<string>();
    for (const other of this.entries.values()) if (other.task.id !== undefined) used.add(other.task.id);
    for (const id of this.retired) used.add(id);
    const count = DIGITS.length * LETTERS.length;
    const start = Math.floor(Math.random() * count);
    // Bounded: at most every id once; the bounds above keep far fewer than 192 in use.
    for (let i = 0; i < count; i++) {
      const n = (start + i) % count;
      const id = `${DIGITS[n % DIGITS.length]}${LETTERS[Math.floor(n / DIGITS.length)]}`;
      if (!used.has(id)) return id;
    }
    return undefined;
  }

  /** @internal */
  progressed(entry: Entry): void {
    const now = this.now();
    if (now - entry.lastProgressEvent < PROGRESS_EVERY_MS && entry.shown) return;
    entry.lastProgressEvent = now;
    this.show(entry);
  }

  /** @internal */
  remove(entry: Entry): void {
    if (!this.entries.delete(entry.task.key)) return;
    if (entry.task.id !== undefined) {
      this.retired.push(entry.task.id);
      if (this.retired.length > RETIRED_IDS) this.retired.shift();
    }
    this.emit({ ...entry.task, removed: true });
  }

  /** @internal */
  now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /**
   * Finished tasks past the age leave the list; then each owner's oldest past its count; then, past
   * the count for all, the oldest of the owner holding the most.
   */
  private prune(): void {
    const now = this.now();
    const byOwner = new Map<string, Entry[]>();
    for (const entry of this.entries.values()) {
      if (entry.task.state === 'running') continue;
      if (now - (entry.task.finishedAt ?? now) > BACKGROUND_LIMITS.maxAgeMs) this.remove(entry);
      else byOwner.set(entry.owner, [...(byOwner.get(entry.owner) ?? []), entry]);
    }
    let total = 0;
    for (const [owner, finished] of byOwner) {
      // Newest first: what is kept.
      finished.sort((a, b) => (b.task.finishedAt ?? 0) - (a.task.finishedAt ?? 0));
      for (const entry of finished.splice(BACKGROUND_LIMITS.finished)) this.remove(entry);
      byOwner.set(owner, finished);
      total += finished.length;
    }
    for (; total > BACKGROUND_LIMITS.finishedOverall; total--) {
      const most = [...byOwner.values()].reduce((a, b) => (b.length > a.length ? b : a));
      this.remove(most.pop() as Entry);
    }
  }

  private emit(task: BackgroundTask): void {
    if (this.listeners.size === 0) return;
    const shown = this.redacted(task);
    for (const listener of this.listeners) listener(shown);
  }

  private redacted(task: BackgroundTask): BackgroundTask {
    const redact = this.opts.redact;
    if (!redact) return { ...task };
    return {
      ...task,
      ...(task.result !== undefined ? { result: redact(task.result) } : {}),
      ...(task.progress?.message !== undefined ? { progress: { ...task.progress, message: redact(task.progress.message) } } : {}),
    };
  }
}

/** One call in progress, as `EndpointCalls` drives it. */
export class WatchedCall {
  /** Ended: a server's progress notification that comes after the result changes nothing (it would list the call as running again, for good). */
  private ended = false;

  constructor(
    private readonly calls: BackgroundCalls,
    private readonly entry: Entry,
  ) {}

  /** The tool the task is named after. */
  get tool(): string {
    return this.entry.task.tool;
  }

  /** Named after the tool it really runs (confirm_action runs a held call). */
  rename(tool: string): void {
    this.entry.task.tool = tool;
    if (this.entry.shown) this.calls.show(this.entry);
  }

  /** The short id, once the caller was answered before the end. */
  get id(): string | undefined {
    return this.entry.task.id;
  }

  progress(progress: Progress): void {
    if (this.ended) return;
    const message = typeof progress.message === 'string' ? progress.message.slice(0, 200) : undefined;
    this.entry.task.progress = {
      progress: progress.progress,
      ...(typeof progress.total === 'number' ? { total: progress.total } : {}),
      ...(message !== undefined ? { message } : {}),
    };
    this.calls.progressed(this.entry);
  }

  /** The caller is answered now: the call gets its id and goes on; undefined if too many already do. */
  answerLater(): string | undefined {
    const id = this.calls.assignId(this.entry.owner);
    if (id === undefined) return undefined;
    this.entry.task.id = id;
    this.calls.show(this.entry);
    return id;
  }

  /** It went on as a task (its caller was answered before it ended): only then is its result kept. */
  get isTask(): boolean {
    return this.entry.task.id !== undefined;
  }

  /** The call ended: kept with its result if its caller was answered before, else out of the list. */
  finish(state: Exclude<TaskState, 'running'>, text: string): void {
    this.ended = true;
    if (this.entry.task.id === undefined) {
      this.calls.remove(this.entry);
      return;
    }
    const task = this.entry.task;
    task.state = state;
    task.finishedAt = this.calls.now();
    task.result = text.length > BACKGROUND_LIMITS.resultChars ? `${text.slice(0, BACKGROUND_LIMITS.resultChars)}…` : text;
    this.calls.show(this.entry);
  }
}

/** "task 3f", "3 F", "3F." → "3F". */
export function normaliseId(spoken: string): string {
  const compact = spoken.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return compact.replace(/^TASK/, '').slice(-2);
}
