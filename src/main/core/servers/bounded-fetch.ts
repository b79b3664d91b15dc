import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * `fetch` for remote MCP servers, with every response body bounded: no line, and no event (the
 * bytes between blank lines, which is what an SSE client buffers), may pass `maxBytes`. A server
 * that streams an endless line would otherwise grow the bridge's memory until it dies, taking
 * every other server with it. Past the bound the body errors and `onOverflow` says so once.
 */
export function boundedFetch(maxBytes: number, onOverflow: (message: string) => void, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    let sinceBlank = 0;
    let newlineLast = false;
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
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
          if (sinceBlank > maxBytes) {
            const message = `the server sent a message of more than ${Math.round(maxBytes / 1048576)} MB`;
            onOverflow(message);
            controller.error(new Error(message));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
