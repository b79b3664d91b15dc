import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PaginatedResultSchema, type Tool, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { own } from '../../../shared/own';
import { isNode, jsonCharsOver } from '../../../shared/schema-refs';
import type { ServerStatus, SkippedTool } from '../../../shared/status';
import { firstIssue } from '../../../shared/zod-issue';
import { clip } from '../problems/server-problems';
import { servedSchema } from './served-schema';

/**
 * A server's `tools/list`, read page by page and checked tool by tool: one tool the MCP schema
 * refuses (no `"type": "object"`, no name…) is left out with its reason instead of failing the
 * whole list (the SDK's `listTools` validates the list as one), and a name listed twice is served
 * once. Everything here is bounded: pages, tools, bytes and the nesting of a schema.
 */

/** More pages than this is a server paging in circles (or for ever). */
export const MAX_LIST_PAGES = 100;
/** More tools than any assistant can choose from; past it, the rest is left out. */
export const MAX_SERVER_TOOLS = 2_000;
/**
 * Characters of JSON of one server's tools, all pages together: a page may be 10 MB (16 MB over
 * HTTP) and a list kept whole until it ends, for what xiaozhi is sent a few KB of. Past it, the
 * rest is left out.
 */
export const MAX_LIST_BYTES = 16 * 1024 * 1024;
/** Deeper schemas break whatever walks them recursively (JSON, ajv, our own); none of use is this deep. */
export const MAX_SCHEMA_DEPTH = 64;
/** A tool's schema as served (references copied in) past this is an attack or a bug: xiaozhi's pages hold 8 KB. */
export const MAX_SERVED_SCHEMA_BYTES = 256 * 1024;

export interface ToolList {
  tools: Tool[];
  /** In the order listed; a name listed many times is one entry with `times`. */
  skipped: SkippedTool[];
  /** Why the list was cut short, when it was (too many pages or tools). */
  cutShort?: string;
}

/** Each tool is checked on its own below, so the page only needs to hold a list. */
const LooseListSchema = PaginatedResultSchema.extend({ tools: z.array(z.unknown()) });

export async function listAllTools(client: Client): Promise<ToolList> {
  if (!client.getServerCapabilities()?.tools) return { tools: [], skipped: [] };
  const raw: unknown[] = [];
  let cursor: string | undefined;
  const seenCursors = new Set<string>();
  let cutShort: string | undefined;
  let bytes = 0;
  /** Tools of the page that passed MAX_LIST_BYTES, from the first that did: listed, not kept. */
  const overBytes: SkippedTool[] = [];
  for (let pages = 0; ; pages++) {
    if (pages === MAX_LIST_PAGES) {
      cutShort = `it answered tools/list with more than ${MAX_LIST_PAGES} pages; only the first ${MAX_LIST_PAGES} are read`;
      break;
    }
    const page = await readPage(client, cursor);
    for (const tool of page.tools) {
      if (overBytes.length === 0) bytes += jsonCharsOver(tool, MAX_LIST_BYTES - bytes);
      if (overBytes.length === 0 && bytes <= MAX_LIST_BYTES) raw.push(tool);
      else overBytes.push(leftOut(tool, raw.length + overBytes.length + 1, 'listTooLarge'));
    }
    if (overBytes.length > 0) {
      cutShort = `its tools/list answer passed ${MAX_LIST_BYTES / 1024 / 1024} MB; the rest of it is left out`;
      break;
    }
    if (raw.length > MAX_SERVER_TOOLS) {
      cutShort = `it listed more than ${MAX_SERVER_TOOLS} tools; only the first ${MAX_SERVER_TOOLS} are read`;
      raw.length = MAX_SERVER_TOOLS;
      break;
    }
    cursor = page.nextCursor;
    // A server that repeats a cursor would page for ever.
    if (cursor === undefined || seenCursors.has(cursor)) break;
    seenCursors.add(cursor);
  }
  const checked = checkTools(raw);
  return { tools: checked.tools, skipped: [...checked.skipped, ...overBytes], ...(cutShort ? { cutShort } : {}) };
}

/** A tool left out before it is checked: its name when it has one that is text. */
function leftOut(raw: unknown, position: number, reason: string): SkippedTool {
  const name = isNode(raw) ? raw.name : undefined;
  return typeof name === 'string' ? { name: clip(name), position, reason } : { position, reason };
}

async function readPage(client: Client, cursor: string | undefined): Promise<{ tools: unknown[]; nextCursor?: string | undefined }> {
  try {
    return await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, LooseListSchema);
  } catch (error) {
    // Zod's own message is a JSON dump of its issues (the status showed only its first line, "[").
    if (error instanceof z.core.$ZodError) {
      const { path, message } = firstIssue(error as z.ZodError);
      throw new Error(`its tools/list answer is not valid MCP${path ? ` (at ${path})` : ''}: ${message}`);
    }
    throw error;
  }
}

/** How deeply the value nests, walked without recursion; stops counting once past `limit`. */
function nestingOver(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof next !== 'object' || next === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next))
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** One listed tool in its parsed form, or what is wrong with it. */
function checkTool(raw: unknown, position: number): { tool: Tool } | { skipped: SkippedTool } {
  // A name as the server wrote it may be any length: the entry keeps its start (it reaches the status and the log).
  const skip = (skipped: SkippedTool) => ({ skipped: skipped.name !== undefined ? { ...skipped, name: clip(skipped.name) } : skipped });
  if (!isNode(raw)) return skip({ position, reason: 'notTool' });
  const name = raw.name;
  if (name === undefined || name === null) return skip({ position, reason: 'noName' });
  if (typeof name !== 'string') return skip({ position, reason: 'badName' });
  const schema = raw.inputSchema;
  if (!isNode(schema)) return skip({ name, position, reason: 'badSchema' });
  if (schema.type !== 'object') return skip({ name, position, reason: 'notObject' });
  if (nestingOver(raw, MAX_SCHEMA_DEPTH)) return skip({ name, position, reason: 'tooDeep' });
  const parsed = ToolSchema.safeParse(raw);
  if (!parsed.success) return skip({ name, position, reason: 'invalid', path: firstIssue(parsed.error).path });
  // Served here first (and kept, per schema object), so a schema that cannot be served is this tool's problem only.
  if (!servable(parsed.data.inputSchema)) return skip({ name, position, reason: 'schemaTooLarge' });
  return { tool: parsed.data };
}

/** True when the schema as served is within bounds (and building it did not fail). */
function servable(schema: Tool['inputSchema']): boolean {
  try {
    return JSON.stringify(servedSchema(schema)).length <= MAX_SERVED_SCHEMA_BYTES;
  } catch {
    return false;
  }
}

/** The tools fit to serve, in the order listed, and those left out with why. */
export function checkTools(raw: readonly unknown[]): { tools: Tool[]; skipped: SkippedTool[] } {
  const tools: Tool[] = [];
  const skipped: SkippedTool[] = [];
  const duplicates = new Map<string, SkippedTool>();
  const served = new Set<string>();
  raw.forEach((item, index) => {
    const checked = checkTool(item, index + 1);
    if ('skipped' in checked) {
      skipped.push(checked.skipped);
      return;
    }
    const { tool } = checked;
    if (!served.has(tool.name)) {
      served.add(tool.name);
      tools.push(tool);
      return;
    }
    const seen = duplicates.get(tool.name);
    if (seen) seen.times = (seen.times ?? 1) + 1;
    else {
      const entry: SkippedTool = { name: clip(tool.name), position: index + 1, reason: 'duplicate', times: 2 };
      duplicates.set(tool.name, entry);
      skipped.push(entry);
    }
  });
  return { tools, skipped };
}

/** One skipped tool in a log line: `tool "x": its inputSchema does not say "type": "object"`. */
export function skippedText(skipped: SkippedTool): string {
  const who = skipped.name !== undefined ? `tool "${skipped.name}"` : `tool #${skipped.position}`;
  const why: Record<string, string> = {
    duplicate: `listed ${skipped.times ?? 2} times (only the first is served)`,
    notTool: 'not an object',
    noName: 'it has no name',
    badName: 'its name is not text',
    badSchema: 'its inputSchema is not an object',
    notObject: 'its inputSchema does not say "type": "object", which MCP requires',
    tooDeep: `its schema nests more than ${MAX_SCHEMA_DEPTH} levels deep`,
    listTooLarge: `its server's tools/list passed ${MAX_LIST_BYTES / 1024 / 1024} MB before it`,
    schemaTooLarge: `its argument schema, with the definitions it refers to copied in, is larger than ${MAX_SERVED_SCHEMA_BYTES / 1024} KB`,
    invalid: `its definition is not valid MCP${skipped.path ? ` at ${skipped.path}` : ''}`,
    noSuchAction: 'the service has no such action',
    noSuchOperation: 'the document has no such operation',
  };
  const near = skipped.near !== undefined ? ` (did you mean ${skipped.near}?)` : '';
  return `${who}: ${own(why, skipped.reason) ?? skipped.reason}${near}`;
}

/** Skipped tools a status carries (the count says how many there were in all). */
const MAX_SKIPPED_SHOWN = 20;

/** A status's account of the tools left out (nothing when none were). */
export function skippedStatus(skipped: SkippedTool[]): Pick<ServerStatus, 'skippedTools' | 'skippedToolCount'> {
  return skipped.length > 0 ? { skippedTools: skipped.slice(0, MAX_SKIPPED_SHOWN), skippedToolCount: skipped.length } : {};
}

/** The warning for a list with tools left out: which ones and why, the first few by name. */
export function skippedWarning(list: ToolList): string | undefined {
  const parts: string[] = [];
  if (list.skipped.length > 0) {
    const shown = list.skipped.slice(0, 5).map(skippedText);
    const more = list.skipped.length - shown.length;
    const served = `${list.tools.length} tool${list.tools.length === 1 ? '' : 's'}`;
    parts.push(`some tools it listed are left out (${served} served): ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`);
  }
  if (list.cutShort) parts.push(list.cutShort);
  return parts.length > 0 ? parts.join('. ') : undefined;
}
