import type { LogEntry } from './status';

/**
 * Control characters in a line of text written for people: a newline or a carriage return in a
 * message (a close reason from the endpoint, a server's own output) would forge a log line, an
 * escape code would drive the terminal, a line separator or a direction override would reorder
 * what an editor shows.
 */
const CONTROL = /[\u0000-\u001f\u007f\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const escapeControl = (text: string) =>
  text.replace(CONTROL, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\t';
    const code = c.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });

/** One entry as a line of the text log: the app's file, the headless run's output, and what the Logs page copies and saves. */
export function formatLogLine(entry: LogEntry): string {
  return `${new Date(entry.time).toISOString()} ${entry.level.toUpperCase().padEnd(5)} [${escapeControl(entry.source)}] ${escapeControl(entry.message)}`;
}
