import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

import { type Problem, problem } from '../../../shared/problem';
import { englishText } from '../problems/server-problems';

/**
 * `fetch` for remote MCP servers, with every response body bounded. An event stream
 * (`text/event-stream`, long-lived) may not hold a line or an event (the bytes between blank lines,
 * which is what an SSE client buffers) past `maxBytes`; any other body (a JSON answer, an error
 * page), which the transport reads whole, may not pass `maxBytes` in all. A server that sends an
 * endless line or a huge answer would otherwise grow the bridge's memory until it dies, taking
 * every other server with it. Past the bound the body errors and `onOverflow` is told the problem, once.
 */
export function boundedFetch(maxBytes: number, onOverflow: (tooBig: Problem) => void, base: FetchLike = fetch): FetchLike {
  const megabytes = Math.round(maxBytes / 1048576);
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const stream = /^\s*text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
    const past = stream ? perEvent(maxBytes) : whole(maxBytes);
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (past(chunk)) {
            const tooBig = problem(stream ? 'server.eventTooBig' : 'server.answerTooBig', { megabytes });
            onOverflow(tooBig);
            controller.error(new Error(englishText(tooBig)));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Whether the body, read so far, is past the bound: counted from the last blank line. */
function perEvent(maxBytes: number): (chunk: Uint8Array) => boolean {
  let sinceBlank = 0;
  let newlineLast = false;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (byte === 10) {
        if (newlineLast) sinceBlank = 0;
        newlineLast = true;
      } else if (byte !== 13) {
        newlineLast = false;
        sinceBlank++;
      }
    }
    return sinceBlank > maxBytes;
  };
}

/** Whether the body, read so far, is past the bound: all of it. */
function whole(maxBytes: number): (chunk: Uint8Array) => boolean {
  let total = 0;
  return (chunk) => (total += chunk.length) > maxBytes;
}
