import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

import { isRecord } from '../../../shared/is-record';
import { type Problem, problem } from '../../../shared/problem';
import { boundedFetch } from '../io/bounded-fetch';
import { type CallSignal, toAbortSignal } from '../io/call-signal';
import { ServiceError, webUrl } from './service-problems';

/** A request a service makes: the URL already built, the body as JSON (absent: none). */
export interface ServiceRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** It carries no secret (a public document's GET): its redirects may go to another site. */
  anySite?: boolean;
  /** The largest answer read (default MAX_ANSWER_BYTES): an OpenAPI document may be larger than any answer. */
  maxBytes?: number;
}

/** An answer within the bounds: its status, its text, and its JSON when it is JSON. */
export interface ServiceAnswer {
  status: number;
  text: string;
  json?: unknown;
}

export interface RequestOptions {
  timeoutMs: number;
  signal?: CallSignal | undefined;
}

/** A body larger than this is refused (an answer the model hears is a few hundred bytes; a spec, a state list, a few MB). */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 5;
/** What the model and the window hear of a platform's own error message. */
const MAX_MESSAGE = 200;

/**
 * Requests toward one web service: every answer bounded (`boundedFetch`), a deadline per request
 * (a timeout the hub words like any other), redirects followed only within the origin the request
 * was made to, or from http to https on its host (a token in a header must never go to another
 * site), and a failed answer turned into a `ServiceError` that says the HTTP status and the
 * platform's own message, not a raw body.
 */
export class ServiceHttp {
  constructor(
    /** How the platform is named to the model and in the window ("Dify", "Home Assistant", a host). */
    readonly platform: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The answer of a 2xx; a ServiceError for any other status, a timeout as the hub's RequestTimeout. */
  async send(request: ServiceRequest, options: RequestOptions): Promise<ServiceAnswer> {
    const answer = await this.raw(request, options);
    if (answer.status < 200 || answer.status > 299) throw new ServiceError(httpProblem(this.platform, answer));
    return answer;
  }

  /** The same, for a JSON API: an answer that is not JSON is a ServiceError. */
  async sendJson(request: ServiceRequest, options: RequestOptions): Promise<unknown> {
    const answer = await this.send(request, options);
    if (answer.json === undefined) throw new ServiceError(problem('service.notJson', { platform: this.platform, status: answer.status }));
    return answer.json;
  }

  /** Any answer within the bounds, whatever its status. */
  async raw(request: ServiceRequest, options: RequestOptions): Promise<ServiceAnswer> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, toAbortSignal(options.signal)]) : timeout;
    let tooBig: Problem | undefined;
    const maxBytes = request.maxBytes ?? MAX_ANSWER_BYTES;
    const bounded = boundedFetch(maxBytes, (p) => (tooBig = p), this.fetchImpl);
    const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9, */*;q=0.5', ...request.headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    let url = webUrl(this.platform, request.url).toString();
    let method = request.method;
    let origin = new URL(url).origin;
    for (const [name, value] of Object.entries(headers))
      // Refused by fetch with a JS error ("Cannot convert argument to a ByteString"): said here, naming the header.
      if (/[^\t\x20-\xff]/.test(value) || /[^!#$%&'*+.^_`|~0-9A-Za-z-]/.test(name) || name === '')
        throw new ServiceError(problem('service.badHeader', { platform: this.platform, header: name.slice(0, 64) }));
    try {
      for (let hop = 0; ; hop++) {
        const response = await bounded(url, { method, headers, ...(body !== undefined ? { body } : {}), redirect: 'manual', signal });
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location && hop >= MAX_REDIRECTS) {
          await response.body?.cancel();
          throw new ServiceError(problem('service.tooManyRedirects', { platform: this.platform }));
        }
        if (response.status >= 300 && response.status < 400 && location) {
          const next = new URL(location, url);
          await response.body?.cancel();
          // The same site, or the same host moved from http to https (most sites do that); a request
          // that carries no secret may go anywhere.
          const upgraded = next.protocol === 'https:' && new URL(url).protocol === 'http:' && next.hostname === new URL(origin).hostname;
          if (next.origin !== origin && !upgraded && !request.anySite)
            throw new ServiceError(problem('service.redirect', { platform: this.platform, host: next.host }));
          if (upgraded) origin = next.origin;
          // As browsers do: a 303 (and a 301/302 of a POST) is fetched again with GET, without its body.
          if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
          }
          url = next.toString();
          continue;
        }
        // A body that says it is past the bound is not read at all.
        if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
          await response.body?.cancel();
          throw new ServiceError(problem('service.tooBig', { platform: this.platform, megabytes: Math.round(maxBytes / 1048576) }));
        }
        const text = await response.text();
        return { status: response.status, text, ...jsonOf(text, response.headers.get('content-type')) };
      }
    } catch (error) {
      if (tooBig) throw new ServiceError(problem('service.tooBig', { platform: this.platform, ...tooBig.params }));
      if (timeout.aborted && !options.signal?.aborted)
        throw new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: options.timeoutMs });
      throw unreachable(this.platform, new URL(url).host, error);
    }
  }
}

/** Node's "fetch failed" as what happened: no such host, or nothing answering there. */
function unreachable(platform: string, host: string, error: unknown): unknown {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return error;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ServiceError(problem('service.noHost', { platform, host }));
  return new ServiceError(problem('service.unreachable', { platform, host }));
}

function jsonOf(text: string, contentType: string | null): { json?: unknown } {
  const trimmed = text.trimStart();
  if (!/json/i.test(contentType ?? '') && !trimmed.startsWith('{') && !trimmed.startsWith('[')) return {};
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return {};
  }
}

/** The platform's own words in an error answer: the common shapes (Dify, Coze, n8n, Home Assistant), or short plain text. */
export function platformMessage(answer: ServiceAnswer): string {
  const json = answer.json;
  let message: unknown;
  if (isRecord(json)) {
    const error = json.error;
    message = json.message ?? json.msg ?? (isRecord(error) ? error.message : error) ?? json.detail ?? json.error_description;
  }
  if (typeof message !== 'string' || message.trim() === '') {
    // Plain text is the platform's word ("401: Unauthorized"); an HTML page is not.
    const text = answer.text.trim();
    message = answer.json === undefined && text && !/^</.test(text) ? text : '';
  }
  // n8n says what to do in a `hint` beside its message ("The workflow must be active…"): its first sentence is kept.
  const hint = isRecord(json) && typeof json.hint === 'string' && json.hint.trim() ? ` ${speakable(json.hint)}` : '';
  const line = `${(message as string).replace(/\s+/g, ' ').trim()}${hint}`;
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}

/**
 * A platform's text as the model says it: one line, its first sentence when it has several, at most
 * MAX_MESSAGE characters (a 500-character stack of errors is not read aloud).
 */
export function speakable(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const first = /^(.{20,}?[.!?。！？])(\s|$)/.exec(line)?.[1] ?? line;
  return first.length > MAX_MESSAGE ? `${first.slice(0, MAX_MESSAGE - 1)}…` : first;
}

/** A platform's whole message on one line, at most `max` characters (its later sentences kept: they are often the way out). */
export function clipped(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function httpProblem(platform: string, answer: ServiceAnswer): Problem {
  const message = platformMessage(answer) || (answer.status === 401 ? 'the token was refused' : 'no details were given');
  return problem('service.http', { platform, status: answer.status, message });
}

/** `/a/b~1c` (RFC 6901) in a JSON value; undefined when it leads nowhere. `''` is the whole value. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let at = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at) && /^\d+$/.test(key)) at = at[Number(key)];
    else if (isRecord(at) && Object.prototype.hasOwnProperty.call(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

/** A value as the model hears it: text as it is, anything else as compact JSON. */
export function spoken(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/** A base URL and a path joined with one slash, whatever each has (`…/v1` + `/workflows/run`). */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
