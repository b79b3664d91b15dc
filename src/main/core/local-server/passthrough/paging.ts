import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** Items one page of an aggregated list holds at most. */
export const PAGE_ITEMS = 200;

export interface Placed<T> {
  server: string;
  item: T;
}

/**
 * One page of lists from several servers (sorted by server name), in that order. The cursor names
 * the server and the place in its list where the next page starts: a server that went meanwhile
 * is skipped, not a reason to start over.
 */
export function pageOver<T>(
  groups: readonly { server: string; items: readonly T[] }[],
  cursor: string | undefined,
): { items: Placed<T>[]; nextCursor?: string } {
  let start = 0;
  let offset = 0;
  if (cursor !== undefined) {
    const [server, at] = readCursor(cursor);
    start = groups.findIndex((g) => g.server >= server);
    if (start < 0) return { items: [] };
    offset = groups[start]?.server === server ? at : 0;
  }
  const items: Placed<T>[] = [];
  for (let g = start; g < groups.length; g++) {
    const group = groups[g] as (typeof groups)[number];
    for (let i = g === start ? offset : 0; i < group.items.length; i++) {
      if (items.length === PAGE_ITEMS) return { items, nextCursor: makeCursor(group.server, i) };
      items.push({ server: group.server, item: group.items[i] as T });
    }
  }
  return { items };
}

function makeCursor(server: string, at: number): string {
  return Buffer.from(JSON.stringify([server, at]), 'utf8').toString('base64url');
}

function readCursor(cursor: string): [string, number] {
  try {
    const read: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(read) && typeof read[0] === 'string' && Number.isSafeInteger(read[1]) && (read[1] as number) >= 0)
      return [read[0], read[1] as number];
  } catch {
    // Said below.
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of the previous page as it was given');
}
