import fs from 'node:fs';
import path from 'node:path';

import { type Translate, translator } from '../../../shared/i18n/translate';
import { type NameRecord, own } from '../../../shared/own';
import { octalMode } from '../system/atomic-write';
import { UsageError } from './args';

/**
 * Secrets the CLI takes (the local server's token, an endpoint URL with its token) come from a
 * file, stdin or the environment: on the command line every user of this computer sees them in
 * `ps` (and the shell keeps them in its history). A secret flag still works, with a warning.
 */

/** The warning a secret given on the command line gets: why, and what to use instead. */
export const onCommandLine = (flag: string, instead: string): string =>
  `${flag} puts a secret on the command line, where other users of this computer can see it (ps) and your shell history keeps it; use ${instead} instead`;

/** A token or URL is a line; a file much longer is not one (a device, a log file named by mistake). */
const MAX_SECRET_BYTES = 16 * 1024;

/** Bytes read from an open file, at most `max + 1` (one more says it was longer). */
function readBounded(fd: number, max: number): Buffer {
  const buffer = Buffer.alloc(max + 1);
  let length = 0;
  for (;;) {
    let read: number;
    try {
      read = fs.readSync(fd, buffer, length, buffer.length - length, null);
    } catch (error) {
      // stdin that is a non-blocking pipe with nothing yet: wait a moment rather than spin.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw error;
    }
    if (read === 0) return buffer.subarray(0, length);
    length += read;
    if (length > max) return buffer.subarray(0, length);
  }
}

/**
 * The secret in `file` (`-`: stdin), surrounding white space (the final line break) removed. Says
 * plainly what is wrong (missing, empty, too long), and warns when others can read the file.
 */
export function readSecretFile(
  flag: string,
  file: string,
  cwd: string,
  warn: (line: string) => void,
  t: Translate = translator('en'),
): string {
  const shown = file === '-' ? 'stdin' : file;
  let buffer: Buffer;
  if (file === '-') buffer = readBounded(0, MAX_SECRET_BYTES);
  else {
    const resolved = path.resolve(cwd, file);
    let fd: number;
    try {
      // Non-blocking: opening a FIFO nobody writes to would wait for ever, before anything is printed.
      fd = fs.openSync(resolved, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    } catch (error) {
      throw UsageError.of('cli.secret.unreadable', { flag, file, why: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
    }
    try {
      const stat = fs.fstatSync(fd);
      if (stat.isDirectory()) throw UsageError.of('cli.secret.folder', { flag, file });
      // A FIFO, a socket or a device (/dev/zero) is no file holding a token; give a pipe as - (stdin).
      if (!stat.isFile()) throw UsageError.of('cli.secret.notFile', { flag, file });
      if (stat.size > MAX_SECRET_BYTES) throw UsageError.of('cli.secret.tooLong', { flag, file, kb: MAX_SECRET_BYTES / 1024 });
      if (stat.isFile() && process.platform !== 'win32' && (stat.mode & 0o044) !== 0) {
        warn(t('cli.secret.readable', { file, mode: octalMode(stat.mode), chmod: `chmod 600 ${/\s/.test(file) ? `"${file}"` : file}` }));
      }
      buffer = readBounded(fd, MAX_SECRET_BYTES);
    } finally {
      fs.closeSync(fd);
    }
  }
  if (buffer.length > MAX_SECRET_BYTES) throw UsageError.of('cli.secret.tooLong', { flag, file: shown, kb: MAX_SECRET_BYTES / 1024 });
  const value = buffer
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim();
  if (value === '') throw UsageError.of('cli.secret.empty', { flag, file: shown });
  return value;
}

/**
 * A secret from `--NAME-file FILE`, `--NAME VALUE` (warned about) or the environment, in that
 * order; both flags at once are refused. Undefined when none is given.
 */
export function secretOption(
  options: NameRecord<string | true>,
  names: {
    flag: string;
    fileFlag: string;
    env?: string;
    /** Whether a value given on the command line is secret (default: always); only then is it warned about. */
    holdsSecret?: (value: string) => boolean;
  },
  context: { env: NodeJS.ProcessEnv; cwd: string; warn: (line: string) => void; t?: Translate },
): string | undefined {
  const direct = options[names.flag];
  const file = options[names.fileFlag];
  if (direct !== undefined && file !== undefined) throw UsageError.of('cli.secret.both', { flag: names.flag, fileFlag: names.fileFlag });
  const t = context.t ?? translator('en');
  if (typeof file === 'string') return readSecretFile(`--${names.fileFlag}`, file, context.cwd, context.warn, t);
  if (typeof direct === 'string') {
    if (names.holdsSecret && !names.holdsSecret(direct)) return direct;
    const instead = names.env
      ? t('cli.secret.insteadEnv', { fileFlag: names.fileFlag, env: names.env })
      : t('cli.secret.instead', { fileFlag: names.fileFlag });
    context.warn(t('cli.secret.onCommandLine', { flag: `--${names.flag}`, instead }));
    return direct;
  }
  const fromEnv = names.env ? own(context.env, names.env) : undefined;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined;
}
