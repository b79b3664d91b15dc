/**
 * Pages `tools/list` by bytes: xiaozhi drops any message over its limit, so each page is filled
 * with as many tools as fit, and `nextCursor` names the first tool of the next page. A name-based
 * cursor stays valid when the catalog changes between pages.
 */

export interface ServedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[] };
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

/** A tool too large for a page on its own loses description text until it fits. */
export function fitTool(prepared: PreparedTool, budget: number): PreparedTool {
  if (prepared.bytes <= budget) return prepared;
  const over = prepared.bytes - budget;
  const description = prepared.tool.description;
  let keep = Math.max(0, description.length - over - 1);
  while (keep > 0) {
    const candidate = prepareTool({ ...prepared.tool, description: `${description.slice(0, keep)}…` });
    if (candidate.bytes <= budget) return candidate;
    keep = Math.max(0, keep - Math.max(1, candidate.bytes - budget));
  }
  return prepareTool({ ...prepared.tool, description: '' });
}

export interface Page {
  tools: PreparedTool[];
  nextCursor?: string;
}

/**
 * One page starting at `cursor` (the first tool whose name is >= it, in sorted order).
 * `sorted` must be sorted by name. `idJson` is the request id as JSON, since it counts too.
 */
export function pageAt(sorted: PreparedTool[], maxBytes: number, idJson: string, cursor?: string): Page {
  let start = 0;
  if (cursor !== undefined) {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as PreparedTool).tool.name < cursor) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const tools: PreparedTool[] = [];
  let used = 0;
  let index = start;
  for (; index < sorted.length; index++) {
    const item = sorted[index] as PreparedTool;
    const nextName = sorted[index + 1]?.tool.name;
    // Reserve room for a cursor naming the following tool, in case this page ends after it.
    const reserve = envelopeBytes(idJson, nextName);
    const cost = item.bytes + (tools.length > 0 ? 1 : 0);
    if (used + cost + reserve <= maxBytes) {
      tools.push(item);
      used += cost;
      continue;
    }
    if (tools.length === 0) {
      // Alone and still too big: shrink it rather than make it unreachable.
      tools.push(fitTool(item, maxBytes - reserve));
      index++;
    }
    break;
  }
  const next = sorted[index];
  return next ? { tools, nextCursor: next.tool.name } : { tools };
}

/** Every page, for counting and for the CLI's view of what xiaozhi gets. */
export function allPages(sorted: PreparedTool[], maxBytes: number, idJson = '1'): Page[] {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const page = pageAt(sorted, maxBytes, idJson, cursor);
    pages.push(page);
    cursor = page.nextCursor;
    if (page.tools.length === 0) break;
  } while (cursor !== undefined);
  return pages;
}
