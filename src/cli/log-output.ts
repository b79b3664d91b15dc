import type { ParsedArgs } from '../main/core/command-line/args';
import { stringOption } from '../main/core/command-line/args';
import { formatLogLine, type LogSink } from '../main/core/logs/log-book';
import type { LogEntry, LogLevel } from '../shared/status';
import { logLineText, type Words } from './cli-words';

export type LogFormat = 'text' | 'json';

const ORDER: LogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * One line per entry on `stream`: the readable text line, in the reader's language with what to do
 * about a failure it reports, or (`json`, English whatever the locale) one object per line with
 * `time` (ISO 8601), `level`, `source` and `message`, a format that stays the same for log collectors;
 * a line that says a problem or event as data adds its `code` and `params` (and the `cause` it reports).
 */
export function logSink(stream: NodeJS.WritableStream, minLevel: LogLevel, format: LogFormat, words: Words): LogSink {
  const min = ORDER.indexOf(minLevel);
  return {
    write(entry) {
      if (ORDER.indexOf(entry.level) < min) return;
      stream.write(`${format === 'json' ? jsonLogLine(entry) : textLogLine(words, entry)}\n`);
    },
  };
}

/**
 * The text line: English as the log file keeps it (and advice when it has some); in Chinese, level and message worded.
 * Its time is the reader's clock with the offset (a walkthrough in Asia/Shanghai read "…Z" times 8 hours off); JSON stays UTC.
 */
function textLogLine(words: Words, entry: LogEntry): string {
  const utc = formatLogLine({ ...entry, message: logLineText(words, entry) });
  const line = `${localStamp(entry.time)}${utc.slice(new Date(entry.time).toISOString().length)}`;
  if (words.language === 'en') return line;
  const level = entry.level.toUpperCase().padEnd(5);
  const at = line.indexOf(level);
  return `${line.slice(0, at)}${words.t(`logs.levelName.${entry.level}`)}${line.slice(at + 5)}`;
}

export function jsonLogLine(
  entry: Pick<LogEntry, 'time' | 'level' | 'source' | 'message' | 'problem' | 'cause'>,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    time: new Date(entry.time).toISOString(),
    level: entry.level,
    source: entry.source,
    message: entry.message,
    ...(entry.problem ? { code: entry.problem.code, params: entry.problem.params } : {}),
    ...(entry.cause ? { cause: entry.cause } : {}),
    ...extra,
  });
}

/** `--log-level` and `--log-format` (already checked against their choices by the parser). */
export function logChoice(args: ParsedArgs, defaultLevel: LogLevel): { level: LogLevel; format: LogFormat } {
  return {
    level: (stringOption(args, 'log-level') ?? defaultLevel) as LogLevel,
    format: (stringOption(args, 'log-format') ?? 'text') as LogFormat,
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** "2026-12-07T14:05:04.321+08:00": the local time in ISO 8601 with its offset (one word, still one instant). */
export function localStamp(time: number): string {
  const d = new Date(time);
  const offset = -d.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return (
    `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T` +
    `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}${zone}`
  );
}
