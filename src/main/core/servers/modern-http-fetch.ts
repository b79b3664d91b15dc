import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

import { isRecord } from '../../../shared/is-record';
import { own } from '../../../shared/own';
import { envelopeVersion, UNSUPPORTED_PROTOCOL_VERSION } from './protocol-negotiation';

/**
 * The HTTP half of speaking MCP 2026-07-28 to a streamable-HTTP server (see protocol-negotiation.ts):
 * - a message whose envelope names a 2026 revision is sent with the headers that revision requires
 *   (`MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` for the methods that name a tool, prompt,
 *   resource or task; Base64-wrapped when not plain ASCII);
 * - such a server answers JSON-RPC errors with an HTTP error status (400 for most), where our SDK's
 *   transport would throw the body away: an error answering such a message, or the -32022 refusal
 *   of `initialize` that starts the negotiation, is handed over as the JSON-RPC error it is.
 * Every other request and response passes untouched.
 */

/** The field of `params` that `Mcp-Name` repeats, by method. */
const NAME_FIELD: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

export function modernHttpFetch(base: FetchLike): FetchLike {
  return async (url, init) => {
    const message = postedMessage(init);
    if (!message) return base(url, init);
    const version = envelopeVersion(message);
    if (version) init = { ...init, headers: modernHeaders(init?.headers, version, message) };
    const response = await base(url, init);
    if (response.ok || !(version || message.method === 'initialize')) return response;
    if (!/\bjson\b/i.test(response.headers.get('content-type') ?? '')) return response;
    const text = await response.text();
    const kept = () => new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      return kept();
    }
    const error = isRecord(answer) && answer.id === message.id ? answer.error : undefined;
    if (!isRecord(error) || (!version && error.code !== UNSUPPORTED_PROTOCOL_VERSION)) return kept();
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(text, { status: 200, headers });
  };
}

/** The JSON-RPC message a POST carries, when it is one (not a batch). */
function postedMessage(init: RequestInit | undefined): Record<string, unknown> | undefined {
  if (init?.method !== 'POST' || typeof init.body !== 'string') return undefined;
  try {
    const message: unknown = JSON.parse(init.body);
    return isRecord(message) && typeof message.method === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

function modernHeaders(given: HeadersInit | undefined, version: string, message: Record<string, unknown>): Headers {
  const headers = new Headers(given);
  const method = message.method as string;
  headers.set('mcp-protocol-version', version);
  headers.set('mcp-method', method);
  const field = own(NAME_FIELD, method);
  const name = field && isRecord(message.params) ? own(message.params, field) : undefined;
  if (typeof name === 'string') headers.set('mcp-name', headerValue(name));
  return headers;
}

/** A value as a header carries it: as is when plain printable ASCII, else `=?base64?…?=` of its UTF-8. */
function headerValue(value: string): string {
  const plain = value.length > 0 && value === value.trim() && /^[\x20-\x7e\t]*$/.test(value) && !/^=\?base64\?.*\?=$/.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
