import { type Problem, problem } from '../../../shared/problem';
import { failureCause, failureText } from '../problems/failure-cause';

/**
 * Why an endpoint connection failed or ended, recorded where it happened: the code each UI words
 * in its language, and what the other side or the socket said with it (for the English text of
 * the log, the status and the CLI, worded by `failureLine` alone).
 */
export interface EndpointFailure {
  readonly problem: Problem;
  /** What the other side said: its close reason, or the status text of its HTTP answer. */
  readonly reason?: string;
  /** A socket error's own message, when the failure is one (its code was read from the error object). */
  readonly error?: string;
}

/** Close codes worth a word in the log. 4004 is what xiaozhi.me sends idle or broken sessions. */
const CLOSE_MEANINGS: Record<number, string> = {
  1000: 'normal closure',
  1001: 'going away',
  1006: 'connection lost without a close frame',
  1009: 'a message was too big',
  1011: 'server error',
  4004: 'xiaozhi internal server error (idle or broken session)',
};

/** xiaozhi.me closes with 1008 (policy violation) and "token解密失败" ("token decryption failed") for a wrong token. */
const TOKEN_REFUSAL = /token|令牌|解密/i;

/**
 * The self-hosted relay closes a tool connection with 1000 and "新连接替换" ("new connection
 * replaced") when another connects with the same token (xinnan-tech/mcp-endpoint-server,
 * src/core/connection_manager.py's register_tool_connection).
 */
const REPLACED = /新连接替换|replaced/i;

/** The other side (or the network) closed the WebSocket. */
export function closedWith(code: number, reason: string): EndpointFailure {
  const kind =
    code === 4004
      ? 'endpoint.idle'
      : code === 1008 && TOKEN_REFUSAL.test(reason)
        ? 'endpoint.tokenRejected'
        : code === 1000 && REPLACED.test(reason)
          ? 'endpoint.replaced'
          : 'endpoint.closed';
  return { problem: problem(kind, { code }), ...(reason ? { reason } : {}) };
}

/** Another connection holds the endpoint: found out by asking the relay (it never closed ours). */
export const heldByAnother = (): EndpointFailure => ({ problem: problem('endpoint.replaced', {}) });

/** Another connection took the endpoint: the relay said so when it closed ours. */
export const isReplaced = (failure: EndpointFailure): boolean => failure.problem.code.startsWith('endpoint.replaced');

/**
 * Who took it, when the one who took it is a copy of ours (the desktop app, or `xiaozhi-tray run`
 * with its config file): named, so the user knows which program to stop.
 */
export function replacedBy(
  failure: EndpointFailure,
  copy: { pid: number; kind: 'desktop' | 'headless'; config?: string } | undefined,
): EndpointFailure {
  if (!copy) return { ...failure, problem: problem('endpoint.replaced', failure.problem.params) };
  const params = { ...failure.problem.params, pid: copy.pid, ...(copy.config !== undefined ? { config: copy.config } : {}) };
  return { ...failure, problem: problem(copy.kind === 'desktop' ? 'endpoint.replacedByApp' : 'endpoint.replacedByRun', params) };
}

/** A failure no quick retry can fix (the token is wrong): the link waits long before it tries again. */
export const needsTheUser = (failure: EndpointFailure): boolean => failure.problem.code === 'endpoint.tokenRejected';

/** The endpoint answered the upgrade with an HTTP status instead of a WebSocket. */
export function refusedWith(status: number, statusText: string | undefined): EndpointFailure {
  // A success that is no upgrade: a web page or an API answered, not a WebSocket endpoint.
  if (status >= 200 && status < 300)
    return {
      problem: problem('endpoint.notXiaozhi', {}),
      error: `answered HTTP ${status} without a WebSocket upgrade: not a WebSocket endpoint`,
    };
  const code = status === 401 ? 'http.unauthorized' : status === 403 ? 'http.forbidden' : status === 404 ? 'http.notFound' : 'http.status';
  return { problem: problem(code, { status }), ...(statusText ? { reason: statusText } : {}) };
}

/** No pong (or any frame) within the heartbeat timeout: the socket is dead even if TCP has not noticed. */
export function noPong(timeoutMs: number): EndpointFailure {
  return { problem: problem('endpoint.noPong', { ms: timeoutMs }) };
}

/** A frame past `limits.maxIncomingBytes` ended the connection. */
export function tooBig(maxIncomingBytes: number): EndpointFailure {
  return { problem: problem('endpoint.tooBig', { kb: Math.round(maxIncomingBytes / 1024) }) };
}

/** The socket failed (DNS, refused, TLS, a handshake timeout…): told from the error object, not its text. */
export function socketFailed(error: unknown, url: string): EndpointFailure {
  // ws's own errors for frames no peer may send: its text says "status code 999" of a close code, never an HTTP answer.
  const wsCode = (error as { code?: unknown } | undefined)?.code;
  if (typeof wsCode === 'string' && wsCode.startsWith('WS_ERR_'))
    return { problem: problem('endpoint.badFrame', { detail: failureText(error) }), error: failureText(error) };
  // Node's HTTP parser (llhttp, codes HPE_*) could not read the answer: the program there does not speak HTTP (SSH, a
  // database, a game server…). The parser's words are for the log only.
  if (typeof wsCode === 'string' && wsCode.startsWith('HPE_'))
    return {
      problem: problem('endpoint.notXiaozhi', {}),
      error: `the program at this address does not answer HTTP (${failureText(error)})`,
    };
  // A 101 that is no WebSocket's (ws checks its key, upgrade, protocol and extensions; these errors carry no code):
  // a program or proxy that only says "switching".
  if (error instanceof Error && WS_HANDSHAKE_REFUSED.test(error.message))
    return {
      problem: problem('endpoint.notXiaozhi', {}),
      error: `the program at this address answered the upgrade, not as a WebSocket does (${failureText(error)})`,
    };
  const cause = failureCause(error, { url });
  // The host as the user's URL names it (api.xiaozhi.me), not the address it resolved to.
  const host = hostOf(url);
  const named = host && typeof cause.params.host === 'string' ? { ...cause, params: { ...cause.params, host } } : cause;
  return { problem: named, error: failureText(error) };
}

/** ws's words for a 101 it cannot take (node_modules/ws/lib/websocket.js, its 'upgrade' handler). */
const WS_HANDSHAKE_REFUSED = /^(?:Invalid (?:Upgrade|Sec-WebSocket-\w+) header|Server sent (?:a|an|no) |Server indicated an extension)/;

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** The failure in English: the log line, the status's `lastError` and the CLI's text. */
export function failureLine(failure: EndpointFailure): string {
  if (failure.error !== undefined) return failure.error;
  const { code, params } = failure.problem;
  switch (code) {
    case 'endpoint.idle':
    case 'endpoint.closed': {
      const meaning = CLOSE_MEANINGS[Number(params.code)];
      return `closed with code ${params.code}${meaning ? ` (${meaning})` : ''}${failure.reason ? `: ${failure.reason}` : ''}`;
    }
    case 'endpoint.replaced':
    case 'endpoint.replacedByApp':
    case 'endpoint.replacedByRun': {
      const who =
        code === 'endpoint.replacedByApp'
          ? `another copy of Xiaozhi Tray is using this endpoint: the desktop app (pid ${params.pid})`
          : code === 'endpoint.replacedByRun'
            ? `another copy of Xiaozhi Tray is using this endpoint: xiaozhi-tray run${params.config !== undefined ? ` --config ${params.config}` : ''} (pid ${params.pid})`
            : 'another program is using this endpoint';
      // Closed by the server for the other's connection, or found out by asking the relay, which routes xiaozhi to the other.
      return failure.reason !== undefined
        ? `${who}; the server closed this connection for ${code === 'endpoint.replaced' ? 'a new one' : 'its one'} (code ${params.code ?? 1000}: ${failure.reason})`
        : `${who}; the relay routes xiaozhi to its connection`;
    }
    case 'endpoint.tokenRejected':
      return `xiaozhi refused the token in the endpoint URL (closed with code ${params.code}${failure.reason ? `: ${failure.reason}` : ''}): copy the MCP endpoint URL again from the xiaozhi console`;
    case 'endpoint.noPong':
      return `no answer to a ping within ${params.ms} ms`;
    case 'endpoint.tooBig':
      return `the endpoint sent a message over the ${params.kb} KB limit (limits.maxIncomingBytes)`;
  }
  // An HTTP answer instead of a WebSocket: for 401/403, what the user should do about it.
  const answered = `the endpoint answered HTTP ${params.status}${failure.reason ? ` ${failure.reason}` : ''}`;
  return code === 'http.unauthorized' || code === 'http.forbidden'
    ? `${answered}: the token in the endpoint URL is probably wrong or expired; copy the MCP endpoint URL again from the xiaozhi console`
    : answered;
}
