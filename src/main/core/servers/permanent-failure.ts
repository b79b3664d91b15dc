import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { type Problem, problem } from '../../../shared/problem';
import { firstIssue } from '../../../shared/zod-issue';
import { OAuthStop } from '../oauth/server-oauth';
import { clip, ProblemError } from '../problems/server-problems';
import { UNSUPPORTED_PROTOCOL_VERSION } from './protocol-negotiation';

/**
 * Failures no retry can fix until the user changes something: the server refused the credentials
 * (HTTP 401/403), it speaks a protocol version we do not, or a setting can never be sent. Told
 * apart by the error objects where they happen (never by reading our own text back), so such a
 * server is failed once with what to do, instead of retried with backoff for ever.
 */

/** A setting of a remote server that can never work (a URL that does not parse, a header HTTP refuses). */
export class BadServerSetting extends ProblemError {}

/** What a server answered to `initialize`, watched while the client connects. */
export interface InitializeAnswer {
  /** The protocol version it answered with. */
  version?: string;
  /** Its error, when it refused. */
  refusal?: unknown;
}

/**
 * An SDK `Client` that keeps what the server answered to its `initialize` (the SDK throws a plain
 * Error for a version it does not speak, with only its wording to tell it by).
 */
export class WatchedClient extends Client {
  readonly initialize: InitializeAnswer = {};

  override async request<T extends AnySchema>(
    request: Parameters<Client['request']>[0],
    resultSchema: T,
    options?: RequestOptions,
  ): Promise<SchemaOutput<T>> {
    if (request.method !== 'initialize') return super.request(request, resultSchema, options);
    try {
      const result = await super.request(request, resultSchema, options);
      const version = (result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      if (typeof version === 'string') this.initialize.version = version;
      return result;
    } catch (error) {
      this.initialize.refusal = error;
      throw error;
    }
  }
}

/** The failure as one that will not go away by itself, or undefined for any other (network, 5xx, crash). */
export function permanentFailure(error: unknown, initialize: InitializeAnswer = {}): Problem | undefined {
  if (error instanceof BadServerSetting || error instanceof OAuthStop) return error.problem;
  const status =
    error instanceof StreamableHTTPError || error instanceof SseError ? error.code : error instanceof UnauthorizedError ? 401 : undefined;
  if (status === 401 || status === 403) return problem('server.authRefused', { status });
  const answered = initialize.version;
  if (answered !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(answered)) return unsupported(answered);
  const refusal = initialize.refusal;
  // An answer the SDK's schema refuses (no serverInfo, a number for the version): the same at every attempt.
  // Zod's own message is a JSON dump of its issues (the status said only its first line, "[").
  if (refusal instanceof z.core.$ZodError) {
    const { path, message } = firstIssue(refusal as z.ZodError);
    return problem('server.badInitialize', { path: clip(path), message: clip(message) });
  }
  // The spec's answer to a version a server does not support: -32602 (-32022 since 2026-07-28),
  // with the versions it does (or at least saying so: some servers leave the data out).
  if (refusal instanceof McpError && (refusal.code === ErrorCode.InvalidParams || refusal.code === UNSUPPORTED_PROTOCOL_VERSION)) {
    const supported = (refusal.data as { supported?: unknown } | undefined)?.supported;
    if (Array.isArray(supported)) return unsupported(supported.filter((v) => typeof v === 'string').join(', '));
    if (/protocol.?version/i.test(refusal.message)) return unsupported('?');
  }
  return undefined;
}

/** The version as the server said it, cut: a made-up one may be megabytes long. */
const unsupported = (version: string): Problem => problem('server.protocolUnsupported', { version: clip(version) });

/** The URL of a remote server, or a setting to fix. */
export function serverUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new BadServerSetting(problem('server.badUrl'));
  }
}

/** Headers HTTP can send, or a setting to fix (fetch would refuse them at every attempt). */
export function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      new Headers([[name, value]]);
    } catch {
      // The value is never said: it is often a key.
      throw new BadServerSetting(problem('server.badHeader', { name }));
    }
  }
}
