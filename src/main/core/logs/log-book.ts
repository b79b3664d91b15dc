import fs from 'node:fs';
import path from 'node:path';

import { formatLogLine } from '../../../shared/log-line';
import type { Problem } from '../../../shared/problem';
import type { LogEntry, LogLevel } from '../../../shared/status';
import { redactProblem, redactText } from './redact';

export { formatLogLine };

export interface LogSink {
  write(entry: LogEntry): void;
}

export interface LogBookOptions {
  /** Entries kept in memory. */
  capacity?: number;
  /** Extra places every entry goes (stdout for the CLI, a file). */
  sinks?: LogSink[];
}

/**
 * A line in English; with the problem it says (and the failure it reports), for the window to word
 * in its language. The English is written from the problem by the room that logs it.
 */
export type Logger = {
  [L in LogLevel]: (message: string, problem?: Problem, cause?: Problem) => void;
} & {
  /** The same source's lines that are a program's own output (a server's stderr), marked so. */
  output?: Pick<Logger, LogLevel>;
};

/** Redacted names kept at most (tools and callers in use are far fewer). */
const MAX_NAMES_KEPT = 512;

/**
 * The one log book of the app: a bounded ring in memory plus sinks and live subscribers.
 * Every message is redacted on the way in, so no reader can see a secret.
 */
export class LogBook {
  private readonly ring: LogEntry[] = [];
  private readonly capacity: number;
  private readonly sinks: LogSink[];
  private readonly listeners = new Set<(entry: LogEntry) => void>();
  private readonly secrets = new Set<string>();
  /** Names redacted already (tools, callers: the same few on every call), forgotten when the secrets change. */
  private readonly names = new Map<string, string>();
  private seq = 0;
  private head = 0;

  constructor(options: LogBookOptions = {}) {
    this.capacity = options.capacity ?? 5000;
    this.sinks = options.sinks ?? [];
  }

  /** Values known to be secret (tokens, keys from settings) are masked wherever they appear. */
  setSecrets(values: Iterable<string>): void {
    this.secrets.clear();
    this.names.clear();
    for (const value of values) if (value.length >= 4) this.secrets.add(value);
  }

  /** Masks the known secrets and anything that looks like one: for whatever else leaves the engine. */
  redact(text: string): string {
    return redactText(text, this.secrets);
  }

  /**
   * A short name (a tool's, a caller's) redacted as `redact` does, remembered: the activity records
   * two on every call, and redacting is most of what recording a call costs. Bounded, since an
   * unknown tool's name is whatever the caller sent.
   */
  redactName(name: string): string {
    let shown = this.names.get(name);
    if (shown === undefined) {
      if (this.names.size >= MAX_NAMES_KEPT) this.names.clear();
      shown = redactText(name, this.secrets);
      this.names.set(name, shown);
    }
    return shown;
  }

  add(level: LogLevel, source: string, message: string, problem?: Problem, cause?: Problem, output?: true): LogEntry {
    const redact = (text: string) => boundedMessage(text, this.secrets);
    const entry: LogEntry = {
      seq: ++this.seq,
      time: Date.now(),
      level,
      source,
      message: redact(message),
      ...(problem ? { problem: redactProblem(problem, redact) } : {}),
      ...(cause ? { cause: redactProblem(cause, redact) } : {}),
      ...(output ? { output } : {}),
    };
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else {
      this.ring[this.head] = entry;
      this.head = (this.head + 1) % this.capacity;
    }
    for (const sink of this.sinks) sink.write(entry);
    for (const listener of this.listeners) listener(entry);
    return entry;
  }

  logger(source: string): Logger {
    return {
      debug: (m, problem, cause) => this.add('debug', source, m, problem, cause),
      info: (m, problem, cause) => this.add('info', source, m, problem, cause),
      warn: (m, problem, cause) => this.add('warn', source, m, problem, cause),
      error: (m, problem, cause) => this.add('error', source, m, problem, cause),
      output: {
        debug: (m) => this.add('debug', source, m, undefined, undefined, true),
        info: (m) => this.add('info', source, m, undefined, undefined, true),
        warn: (m) => this.add('warn', source, m, undefined, undefined, true),
        error: (m) => this.add('error', source, m, undefined, undefined, true),
      },
    };
  }

  /** Oldest first; the last `limit` entries. */
  entries(limit = this.capacity): LogEntry[] {
    const ordered =
      this.ring.length < this.capacity ? this.ring.slice() : [...this.ring.slice(this.head), ...this.ring.slice(0, this.head)];
    return ordered.slice(Math.max(0, ordered.length - limit));
  }

  subscribe(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** A log line keeps at most this many characters: a 1 MB frame must not become a 1 MB entry. */
export const MAX_LOG_MESSAGE = 4000;
/** Redaction sees this much past the cut, so a secret that straddles it is still masked. */
const REDACT_MARGIN = 1024;

function boundedMessage(message: string, secrets: Iterable<string>): string {
  if (message.length <= MAX_LOG_MESSAGE) return redactText(message, secrets);
  const redacted = redactText(message.slice(0, MAX_LOG_MESSAGE + REDACT_MARGIN), secrets);
  return `${redacted.slice(0, MAX_LOG_MESSAGE)}… (${message.length - MAX_LOG_MESSAGE} more characters not kept)`;
}

/** Writes entries to stdout, one line each (the headless CLI). */
export function streamSink(stream: NodeJS.WritableStream, minLevel: LogLevel = 'info'): LogSink {
  const order: LogLevel[] = ['debug', 'info', 'warn', 'error'];
  const min = order.indexOf(minLevel);
  return {
    write(entry) {
      if (order.indexOf(entry.level) >= min) stream.write(`${formatLogLine(entry)}\n`);
    },
  };
}

/**
 * Appends to `<dir>/xiaozhi-tray.log`, rotating to `.1`, `.2`… when the file passes `maxBytes`.
 * Synchronous appends: log volume is small and a crash must not lose the last lines.
 */
export function rotatingFileSink(dir: string, maxBytes = 1_000_000, keep = 3): LogSink {
  const file = path.join(dir, 'xiaozhi-tray.log');
  fs.mkdirSync(dir, { recursive: true });
  let size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  return {
    write(entry) {
      const line = `${formatLogLine(entry)}\n`;
      try {
        if (size + Buffer.byteLength(line) > maxBytes) {
          for (let i = keep - 1; i >= 1; i--) {
            const from = i === 1 ? file : `${file}.${i - 1}`;
            if (fs.existsSync(from)) fs.renameSync(from, `${file}.${i}`);
          }
          size = 0;
        }
        fs.appendFileSync(file, line);
        size += Buffer.byteLength(line);
      } catch {
        // A full disk or a locked file must not take the bridge down; the ring still has the entry.
      }
    },
  };
}
