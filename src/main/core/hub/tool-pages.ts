import type { ServedSchema } from '../servers/served-schema';

/**
 * Pages `tools/list` by bytes: xiaozhi drops any message over its limit, so each page is filled
 * with as many tools as fit, and `nextCursor` names the first tool of the next page. A name-based
 * cursor stays valid when the catalog changes between pages.
 */

export interface ServedTool {
  name: string;
  description: string;
  inputSchema: ServedSchema;
}

export interface PreparedTool {
  tool: ServedTool;
  json: string;
  bytes: number;
}

export function prepareTool(tool: ServedTool): PreparedTool {
  const json = JSON.stringify(tool);
  return { tool, json, bytes: Buffer.byteLength(json) };
}

/** Bytes of a page response around its tool JSON, cursor and id. */
function envelopeBytes(idJson: string, cursor: string | undefined): number {
  const cursorPart = cursor === undefined ? '' : `,"nextCursor":${JSON.stringify(cursor)}`;
  return Buffer.byteLength(`{"result":{"tools":[]${cursorPart}},"jsonrpc":"2.0","id":${idJson}}`);
}

/** Rounds of shortening a description: each scales it to the room left, so two or three suffice. */
const FIT_ROUNDS = 8;

/** The first `keep` characters, never ending in half a surrogate pair. */
export function cutAt(text: string, keep: number): string {
  const code = text.charCodeAt(keep - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? keep - 1 : keep);
}

/**
 * A tool too large for a page on its own loses description text until it fits; if its schema alone
 * is still too large, the descriptions inside it go too. The result may still be over the budget:
 * such a tool cannot be listed at all.
 */
export function fitTool(prepared: PreparedTool, budget: number): PreparedTool {
  if (prepared.bytes <= budget) return prepared;
  const bare = prepareTool({ ...prepared.tool, description: '' });
  const description = prepared.tool.description;
  let keep = description.length;
  let bytes = prepared.bytes;
  for (let round = 0; round < FIT_ROUNDS && bare.bytes < budget; round++) {
    // Characters take 1 to 6 bytes in JSON: scale the text to the room left, then measure again.
    keep = Math.min(keep - 1, Math.floor((keep * (budget - bare.bytes)) / (bytes - bare.bytes)));
    if (keep <= 0) break;
    const candidate = prepareTool({ ...prepared.tool, description: `${cutAt(description, keep)}…` });
    if (candidate.bytes <= budget) return candidate;
    bytes = candidate.bytes;
  }
  if (bare.bytes <= budget) return bare;
  const properties = prepared.tool.inputSchema.properties;
  if (!properties) return bare;
  return prepareTool({
    ...bare.tool,
    inputSchema: { ...bare.tool.inputSchema, properties: withoutDescriptions(properties) as Record<string, unknown> },
  });
}

/** A schema without its `description` texts (names, types and structure stay). */
function withoutDescriptions(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => withoutDescriptions(item, depth + 1));
  // Own properties, whatever their names (an assignment of `__proto__`, a server's property name, would set the prototype).
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, child]) => !(key === 'description' && typeof child === 'string'))
      .map(([key, child]) => [key, key === 'enum' || key === 'const' || key === 'default' ? child : withoutDescriptions(child, depth + 1)]),
  );
}

export interface Page {
  tools: PreparedTool[];
  nextCursor?: string;
  /** Tools too large for any page even when shrunk: left out of the list (the view says so). */
  unlisted?: string[];
}

/** Index of the first tool whose name is >= `cursor`. */
function lowerBound(sorted: PreparedTool[], cursor: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as PreparedTool).tool.name < cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One page starting at `cursor` (the first tool whose name is >= it, in sorted order).
 * `sorted` must be sorted by name. `idJson` is the request id as JSON, since it counts too.
 * Whatever the input, the next cursor is past every name on this page, so paging always ends: of
 * tools that share a name (which a name cursor cannot tell apart) only the first is served.
 */
export function pageAt(sorted: PreparedTool[], maxBytes: number, idJson: string, cursor?: string): Page {
  const tools: PreparedTool[] = [];
  const unlisted: string[] = [];
  let used = 0;
  let index = cursor === undefined ? 0 : lowerBound(sorted, cursor);
  while (index < sorted.length) {
    const item = sorted[index] as PreparedTool;
    let after = index + 1;
    while (after < sorted.length && (sorted[after] as PreparedTool).tool.name === item.tool.name) after++;
    // Reserve room for a cursor naming the following tool, in case this page ends after it.
    const reserve = envelopeBytes(idJson, sorted[after]?.tool.name);
    const cost = item.bytes + (tools.length > 0 ? 1 : 0);
    if (used + cost + reserve <= maxBytes) {
      tools.push(item);
      used += cost;
      index = after;
      continue;
    }
    if (tools.length > 0) break;
    // Alone and still too big: shrink it rather than make it unreachable; past shrinking, leave it out.
    const fitted = fitTool(item, maxBytes - reserve);
    index = after;
    if (fitted.bytes <= maxBytes - reserve) {
      tools.push(fitted);
      break;
    }
    unlisted.push(item.tool.name);
  }
  const next = sorted[index];
  const page: Page = next ? { tools, nextCursor: next.tool.name } : { tools };
  if (unlisted.length > 0) page.unlisted = unlisted;
  return page;
}

/** Every page, for counting and for the CLI's view of what xiaozhi gets. */
export function allPages(sorted: PreparedTool[], maxBytes: number, idJson = '1'): Page[] {
  const pages: Page[] = [];
  let cursor: string | undefined;
  // Each page moves the cursor past at least one tool; the bound only guards that promise.
  for (let round = 0; round <= sorted.length; round++) {
    const page = pageAt(sorted, maxBytes, idJson, cursor);
    pages.push(page);
    if (page.nextCursor === undefined || (cursor !== undefined && page.nextCursor <= cursor)) break;
    cursor = page.nextCursor;
  }
  return pages;
}
