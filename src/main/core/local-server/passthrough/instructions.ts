import { clipText, type UpstreamServer } from './upstream';

/** Characters kept of one server's instructions, and of all of them together. */
export const MAX_SERVER_INSTRUCTIONS = 2_000;
export const MAX_INSTRUCTIONS = 8_000;

/**
 * The instructions of a client's servers as one text for the hub's `initialize`, each headed with
 * its server's name; undefined when none has any. Servers past the bound are named, not quoted.
 */
export function combinedInstructions(servers: readonly UpstreamServer[]): string | undefined {
  const parts: string[] = [];
  const left: string[] = [];
  let size = 0;
  for (const server of servers) {
    const text = server.client.getInstructions()?.trim();
    if (!text) continue;
    const part = `## ${server.name}\n${clipText(text, MAX_SERVER_INSTRUCTIONS)}`;
    if (size + part.length > MAX_INSTRUCTIONS) left.push(server.name);
    else {
      parts.push(part);
      size += part.length + 2;
    }
  }
  if (left.length > 0) parts.push(`(The instructions of ${clipText(left.join(', '), 500)} were left out: too long together.)`);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
