import type { LoggingLevel, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';

import type { Logger } from '../../logs/log-book';
import { askQuietly, clipForLog, clipText, LIST_TIMEOUT_MS, type UpstreamServer } from './upstream';

export type LogParams = LoggingMessageNotification['params'];

const SEVERITY: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/** A server's log message's data, as JSON, past which it is cut (for a client) and, far shorter, for our log. */
const MAX_FORWARDED_DATA = 64 * 1024;
const MAX_LOGGED_DATA = 500;
/** A logger's name, as a client gets it. */
const MAX_LOGGER = 200;

/** A session that asked for `wanted` hears a message at `level`. */
export function wants(wanted: LoggingLevel | undefined, level: LoggingLevel): boolean {
  return wanted !== undefined && (SEVERITY[level] ?? 0) >= SEVERITY[wanted];
}

/** What a server is asked for: the most verbose level any session of it asked (each session filters its own). */
export function mostVerbose(levels: readonly (LoggingLevel | undefined)[]): LoggingLevel | undefined {
  let best: LoggingLevel | undefined;
  for (const level of levels) if (level && (best === undefined || SEVERITY[level] < SEVERITY[best])) best = level;
  return best;
}

/** The message as a client gets it: its logger names the server, its data bounded. */
export function forwardedLog(server: string, params: LogParams): LogParams {
  const logger = params.logger ? `${server}/${clipText(params.logger, MAX_LOGGER)}` : server;
  const json = safeJson(params.data);
  const data = json.length > MAX_FORWARDED_DATA ? clipText(json, MAX_FORWARDED_DATA) : params.data;
  return { ...params, logger, data };
}

/** Our own debug line for it: short (the log book masks known secrets and bounds it again). */
export function logLine(server: string, params: LogParams): string {
  const data = typeof params.data === 'string' ? params.data : safeJson(params.data);
  return `server "${server}" logged (${params.level}${params.logger ? `, ${clipForLog(params.logger, 60)}` : ''}): ${clipForLog(data, MAX_LOGGED_DATA)}`;
}

/** The level each server was last asked for: asked again only when it changes (or the server restarted). */
export class ServerLevels {
  private readonly sent = new Map<string, LoggingLevel>();

  constructor(private readonly log: Logger) {}

  forget(server: string): void {
    this.sent.delete(server);
  }

  async apply(server: UpstreamServer, level: LoggingLevel | undefined): Promise<void> {
    if (!level || this.sent.get(server.name) === level) return;
    this.sent.set(server.name, level);
    const done = await askQuietly(this.log, server.name, 'logging/setLevel', () =>
      server.client.setLoggingLevel(level, { timeout: LIST_TIMEOUT_MS }),
    );
    if (!done && this.sent.get(server.name) === level) this.sent.delete(server.name);
  }
}

function safeJson(data: unknown): string {
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

/**
 * How many of a server's log messages our own log takes per minute: a chatty server would fill
 * the log book (its clients still get every one they asked for). Past it, the next window's first
 * line says how many were left out.
 */
export class LogLineBudget {
  private readonly windows = new Map<string, { start: number; count: number; skipped: number }>();

  constructor(
    private readonly max = 60,
    private readonly windowMs = 60_000,
  ) {}

  /** Whether to log this one, and how many were left out in the window before. */
  take(server: string, now = Date.now()): { log: boolean; skipped: number } {
    let window = this.windows.get(server);
    let skipped = 0;
    if (!window || now - window.start >= this.windowMs) {
      skipped = window?.skipped ?? 0;
      window = { start: now, count: 0, skipped: 0 };
      this.windows.set(server, window);
    }
    if (window.count >= this.max) {
      window.skipped++;
      return { log: false, skipped };
    }
    window.count++;
    return { log: true, skipped };
  }
}
