import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

import { own } from '../../../shared/own';
import { type Problem, problem } from '../../../shared/problem';
import type { LogLevel } from '../../../shared/status';
import type { Logger } from '../logs/log-book';
import { failureCause, failureText } from './failure-cause';
import { startFailureCause } from './start-failure-cause';

/**
 * A server's problems as data: built where they happen (a code with parameters), worded in English
 * here and only here for the log, the CLI and `lastError` (the window words the same codes from its
 * dictionaries, in the reader's language).
 */

/** How a stdio server's process ended (Node's 'exit' event). */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A failure as a server holds it: its problem, and a foreign error's own words (network, HTTP, SDK) when it came from one. */
export interface Failure {
  problem: Problem;
  foreign?: string;
  /** The cause its own words name (`start-failure-cause.ts`), said first in the window. */
  cause?: Problem;
}

/** An error of our own that carries its problem as a value (thrown where an error is expected: a promise, the SDK's transport). */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(englishText(problem));
  }
}

/** A foreign error (Node, undici, the SDK): classified by its codes and classes, its message kept for the log. */
export function foreignFailure(error: unknown, context: { url?: string; command?: string } = {}): Failure {
  // A sign-in server's refusal (a refresh while it is down): its own words may quote its answer, so only the reason is kept.
  // Down for a while (server_error, temporarily_unavailable: a 5xx) is retried by itself; the user has nothing to press.
  if (error instanceof OAuthError)
    return { problem: problem('server.signInFailed', { reason: DOWN_FOR_A_WHILE.has(error.errorCode) ? 'unavailable' : 'failed' }) };
  return { problem: failureCause(error, context), foreign: failureText(error) };
}

/** The OAuth error codes of a sign-in server that is down for a while, rather than refusing. */
const DOWN_FOR_A_WHILE = new Set(['server_error', 'temporarily_unavailable']);

/** The exit code, or the signal that killed it ('' for a signal Node did not name). */
export const exitParams = (exit: ProcessExit | undefined): Record<string, string | number> =>
  !exit ? {} : exit.code !== null ? { code: exit.code } : { signal: exit.signal ?? '' };

/** A process that ended while it was serving. */
export const exitProblem = (exit: ProcessExit): Problem =>
  exit.code !== null ? problem('server.exited', { code: exit.code }) : problem('server.killed', { signal: exit.signal ?? '' });

/** A process that ended before it answered `initialize`; `lastLine` is the last line of its stderr, if any. */
export const earlyExitProblem = (exit: ProcessExit | undefined, lastLine: string): Problem =>
  problem('server.exitedEarly', { lastLine, ...exitParams(exit) });

/** A process that ended saying why (`line`, the telling line of its stderr), before it was ready or while serving. */
export const crashProblem = (line: string, exit: ProcessExit | undefined, starting: boolean): Problem =>
  problem('server.crashed', { line, ...exitParams(exit), ...(starting ? { when: 'starting' } : {}) });

/** A crash that said why, with the cause its line names when the person's words exist for it. */
export function crashFailure(line: string, exit: ProcessExit | undefined, starting: boolean): Failure {
  const cause = startFailureCause(line);
  return { problem: crashProblem(line, exit, starting), ...(cause ? { cause } : {}) };
}

type Params = Problem['params'];

const signalOf = (p: Params) => (p.signal ? String(p.signal) : 'a signal');
/** "exited with code 7", "was killed by SIGKILL": what tells a crash, a kill (out of memory?) and a clean exit apart. */
const endedHow = (p: Params) => (p.code !== undefined ? `exited with code ${p.code}` : `was killed by ${signalOf(p)}`);
/** ", with exit code 2", ", killed by SIGTERM", or nothing when the exit is not known yet. */
const endedEarlyHow = (p: Params) =>
  p.code !== undefined ? `, with exit code ${p.code}` : p.signal !== undefined ? `, killed by ${signalOf(p)}` : '';
const megabytes = (p: Params) => `${p.megabytes} MB`;
/** A log line's note of the last thing the server printed, when the cause does not already say it. */
const lastStderr = (p: Params) => (p.lastLine !== undefined ? ` (last stderr: ${p.lastLine})` : '');

const SYSTEM_LIMITS: Record<string, string> = {
  EMFILE: 'the bridge has too many files open to start it (EMFILE)',
  ENFILE: 'the system has too many files open to start it (ENFILE)',
  EAGAIN: 'the system refused a new process for now (EAGAIN: too many processes)',
  ENOMEM: 'there was not enough memory to start it (ENOMEM)',
};

/** Why a sign-in failed (the `reason` of server.signInFailed), in English; the window words the same reasons. */
const SIGN_IN_FAILURES: Record<string, string> = {
  timeout: 'nobody came back from the browser in time',
  state: 'the answer from the browser was not for this sign-in',
  issuer: 'the sign-in server is not the one this server named (issuer mismatch)',
  denied: 'the sign-in was refused or cancelled in the browser',
  noOAuth: 'this server does not offer a sign-in (no OAuth metadata): check its URL, or set its headers',
  noRegistration: "the sign-in server does not register new apps: set oauth.clientId in this server's settings",
  failed: 'the sign-in server refused the request',
  unavailable: 'the sign-in could not be renewed: the sign-in server did not answer as it should (down for a while?)',
  resource: "this server's sign-in information names another server (protected resource mismatch)",
  insecure: 'the sign-in server does not use https (only https, or http on this machine, is trusted with sign-ins)',
  storage: "it could not be saved: other users can write to the app's folder (use a folder only you can write to, XIAOZHI_TRAY_STATE_DIR)",
};

const REGISTRY_REASONS: Record<string, string> = {
  dns: ', its name could not be found (DNS)',
  tls: ', its certificate was not trusted (an antivirus or a proxy in between?)',
  timeout: ', the connection timed out',
  reset: ', the connection was cut or refused',
};

/** The system limits a refused spawn can name (retried, never counted as a crash). */
export const SYSTEM_LIMIT_CODES = Object.keys(SYSTEM_LIMITS);

/** The config's words for the mainland China mirrors: for the log and the CLI, never the window (it has a setting). */
const HEADLESS_MIRRORS = ' (in mainland China, put "mirrors": { "preset": "china" } in the config)';

const ENGLISH: Record<string, (p: Params, cause: string) => string> = {
  'server.packageNotFound': (p) => `"${p.package}" was not found on the npm registry: check the package name (it is not retried)`,
  'server.notFound': (p) => `the command "${p.command}" was not found on PATH; install it, or give its full path`,
  'server.interpreterMissing': (p) =>
    `"${p.command}" was found (${p.found}) but could not be started: the interpreter on its first line (#!) is missing`,
  'server.runtimeMissing': (p) =>
    p.reason === 'onRequest'
      ? `the command "${p.command}" needs ${p.runtime}, which is not installed here; press Download ${p.runtime} in the window (Services), or install it with: ${p.install}`
      : `the command "${p.command}" needs ${p.runtime}, which is not installed here; install it with: ${p.install} (or start with --fetch-runtimes, and the app fetches it itself, from the config's download sources)`,
  'server.registryUnreachable': (p) =>
    `could not reach the package registry (${p.host})${own(REGISTRY_REASONS, String(p.reason)) ?? ''}: in Settings → Download sources, choose the mainland China mirror (headless: "mirrors": { "preset": "china" } in the config), or check your network or proxy`,
  'server.runtimeDownloadFailed': (p) =>
    p.reason === 'tooBig'
      ? `${p.runtime} could not be fetched: ${p.host} sent more than the ${p.megabytes} MB ${p.runtime} ${p.version} is; the partial download was deleted`
      : p.reason === 'tooSlow'
        ? `${p.runtime} could not be fetched: ${p.host} sent less than ${p.kilobytes} KB in ${p.seconds} s; the download stopped (the next start continues it)`
        : p.reason === 'network' || p.reason === 'tls'
          ? `${p.runtime} could not be fetched: ${p.host} could not be reached (${p.detail})${p.advice === 'official' ? HEADLESS_MIRRORS : ''}`
          : `${p.runtime} could not be fetched: ${p.reason}${p.advice === 'official' ? HEADLESS_MIRRORS : ''}`,
  'server.runtimeMismatch': (p) =>
    `the ${p.runtime} ${p.version} that ${p.host} sent (${p.file}) is not the genuine one: its SHA-256 differs from the one the app carries; it was deleted and never run`,
  'server.runtimeFolderUnsafe': (p) =>
    `${p.runtime} is not run from ${p.folder}, nor fetched into it: ${p.why}, who could put their own program there; make it yours only (chmod 700 ${p.folder})`,
  'server.fetchingRuntime': (p) => `${p.runtime} is not installed here: fetching ${p.runtime} ${p.version} into the app's folder`,
  'server.runtimeReady': (p) => `runs with the app's ${p.runtime} ${p.version}`,
  'server.notExecutable': (p) => `the command "${p.command}" is not executable (permission denied)`,
  'server.cwdMissing': (p) => `the working folder "${p.cwd}" does not exist or is not a folder`,
  'server.systemLimit': (p) => `${own(SYSTEM_LIMITS, String(p.code)) ?? `the system refused to start it (${p.code})`}; trying again`,
  'server.authRefused': (p) =>
    p.status === 403
      ? "the server refused access (HTTP 403): check the token's permissions or the headers of this server"
      : `the server refused the credentials (HTTP ${p.status}): check the token or headers of this server`,
  // What to do (Sign in, or xiaozhi-tray login) is the hint every reader is given beside these.
  'server.needsSignIn': () => 'this server needs you to sign in',
  'server.signInAgain': () => 'the sign-in to this server has expired',
  'server.signInFailed': (p) => `sign-in failed: ${own(SIGN_IN_FAILURES, String(p.reason)) ?? String(p.reason)}`,
  'server.protocolUnsupported': (p) =>
    `the server speaks MCP protocol version ${p.version}, which this app does not: update the server (or this app)`,
  'server.badUrl': () => 'the URL of this server is not a valid address',
  'server.badHeader': (p) =>
    `the header "${p.name}" cannot be sent: its name or value has characters HTTP does not allow (a space in the name, a line break)`,
  'server.startTimeout': (p) => `did not answer initialize within ${p.seconds} s`,
  'server.exitedEarly': (p) => `the program exited before it was ready${endedEarlyHow(p)}`,
  'server.exited': (p) => `the program ${endedHow(p)}`,
  'server.killed': (p) => `the program ${endedHow(p)}`,
  'server.crashed': (p) =>
    p.when === 'starting'
      ? `the program exited before it was ready${endedEarlyHow(p)}: ${p.line}`
      : `the program ${p.code !== undefined || p.signal !== undefined ? endedHow(p) : 'stopped'}: ${p.line}`,
  'server.closed': () => 'the connection closed',
  'server.pingFailed': (p) => `ping failed: ${p.detail}`,
  'server.outputOverflow': (p) =>
    `its output overflowed: it printed more than ${megabytes(p)} on stdout without a newline (a message too big, or logging on stdout instead of stderr)`,
  'server.eventTooBig': (p) => `the server sent a message of more than ${megabytes(p)}`,
  'server.answerTooBig': (p) => `the server sent an answer of more than ${megabytes(p)}`,
  'server.badInitialize': (p) => `its answer to initialize is not valid MCP${p.path ? ` (at ${p.path})` : ''}: ${p.message}`,
  'server.notReading': (p) => `it stopped reading its input: more than ${megabytes(p)} the bridge sent it is waiting`,
  'server.outputHeld': (p) => `it ${endedHow(p)}, but a process it started still holds its output open; closing the connection`,
  'server.running': (p) =>
    `running${p.pid !== undefined ? ` (pid ${p.pid})` : ''}: ${p.name || 'server'} ${p.version ?? ''}, ${p.tools} tools`.replace(
      /\s+,/,
      ',',
    ),
  'server.installing': (p) =>
    `first run: ${p.runner} is downloading and installing ${p.package}; it is given up to ${p.minutes} min to start`,
  'server.restarting': (p, cause) => `${cause}${lastStderr(p)}; restarting in ${Number(p.seconds).toFixed(1)} s`,
  'server.crashLoop': (p, cause) =>
    `failed ${p.count} times within ${p.seconds} s; giving up until restarted. Last error: ${cause}${lastStderr(p)}`,
  'server.notRetrying': (_p, cause) => `${cause}; not retrying until it is restarted`,
  other: (p) => String(p.detail ?? ''),
};

/**
 * The English of a server's problem or event; `cause` is the English of the failure an event
 * reports (a restart's, a crash loop's). The one place these texts are written.
 */
export function englishText(item: Problem, cause = ''): string {
  const word = own(ENGLISH, item.code);
  if (word) return word(item.params, cause);
  const params = Object.entries(item.params).map(([key, value]) => `${key}=${value}`);
  return `${item.code}${params.length > 0 ? ` (${params.join(', ')})` : ''}`;
}

/** Characters kept of a text a server wrote (a version, a name, an error) where the status or the log says it. */
export const MAX_SAID_CHARS = 200;
/** Characters kept of a foreign error's own words. */
const MAX_FOREIGN_CHARS = 1000;

/** The text, cut to `max` characters with an ellipsis. */
export const clip = (text: string, max = MAX_SAID_CHARS): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The failure with every text in it cut: its parameters and a foreign error's words come from the
 * server (a protocol version of 2 MB, an error message), and reach every status event the window is sent.
 */
export function boundedFailure(failure: Failure): Failure {
  const params = Object.fromEntries(
    Object.entries(failure.problem.params).map(([key, value]) => [key, typeof value === 'string' ? clip(value) : value]),
  );
  return {
    problem: { ...failure.problem, params },
    ...(failure.foreign !== undefined ? { foreign: clip(failure.foreign, MAX_FOREIGN_CHARS) } : {}),
    ...(failure.cause ? { cause: failure.cause } : {}),
  };
}

/** What `lastError` and the log say of a failure: a foreign error's own words, or ours. */
export const failureEnglish = (failure: Failure): string => failure.foreign ?? englishText(failure.problem);

/** Logs a server event: the English line, and the event (with the failure it reports) for the window to word. */
export function say(log: Logger, level: LogLevel, event: Problem, cause?: Failure): void {
  // A start cause the person's words exist for (a folder gone, a key not given) is what the window and the CLI say;
  // the English line (the file, JSON) keeps the program's own words.
  const worded = cause?.cause && cause.cause.code.startsWith('start.') ? cause.cause : cause?.problem;
  log[level](englishText(event, cause ? failureEnglish(cause) : ''), event, worded);
}
