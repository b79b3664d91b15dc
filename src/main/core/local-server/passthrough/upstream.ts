import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpError, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

import type { Logger } from '../../logs/log-book';
import type { ServerNotice } from '../../servers/server-notice';
import type { ListCache } from './list-cache';

export type { ServerNotice } from '../../servers/server-notice';

/** A running server of a client's set, as the passthrough reaches it. */
export interface UpstreamServer {
  readonly name: string;
  readonly client: Client;
}

/**
 * What local sessions may reach of the servers (not the fleet): the running servers a tool set
 * includes, and what they announce.
 */
export interface PassthroughServers {
  /** The running servers the set (by id) includes, sorted by name. */
  serversOf(setId: string): UpstreamServer[];
  /** Every server's notices; returns the way to stop listening. */
  onNotice(listener: (server: string, notice: ServerNotice) => void): () => void;
}

/** A list page asked of one server: short, a server that hangs costs the aggregate this long at most. */
export const LIST_TIMEOUT_MS = 10_000;
/** A read, a prompt or a completion: the client waits for this one answer. */
export const ANSWER_TIMEOUT_MS = 30_000;
/** Pages of one server's list read at most (a server that pages for ever stops here). */
export const MAX_PAGES = 20;
/** Items kept of one server's list. */
export const MAX_ITEMS = 5_000;

export type Feature = 'resources' | 'subscribe' | 'prompts' | 'completions' | 'logging';

/** Only what the server said it supports is asked of it. */
export function supports(server: UpstreamServer, feature: Feature): boolean {
  const caps: ServerCapabilities | undefined = server.client.getServerCapabilities();
  if (!caps) return false;
  if (feature === 'subscribe') return caps.resources?.subscribe === true;
  return caps[feature] !== undefined;
}

/** One request of one server; its failure is logged at debug level and comes back as undefined. */
export async function askQuietly<T>(log: Logger, server: string, what: string, ask: () => Promise<T>): Promise<T | undefined> {
  try {
    return await ask();
  } catch (error) {
    log.debug(`server "${server}" failed ${what} (left out): ${clipForLog(error instanceof Error ? error.message : String(error), 300)}`);
    return undefined;
  }
}

/**
 * One item's size (as JSON) past which it is left out, and the size of a list past which no more
 * is read: the list is kept, and each client is sent pages of 200 of its items (one of 20 resources
 * with 5 MB URIs was 100 MB, kept and sent to every client whole).
 */
export const MAX_ITEM_CHARS = 64 * 1024;
export const MAX_LIST_CHARS = 8 * 1024 * 1024;

/** Every page of a server's list, bounded in pages, items and size. */
export async function listAll<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  let size = 0;
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const got = await page(cursor);
    for (const item of got.items) {
      if (items.length >= MAX_ITEMS || size >= MAX_LIST_CHARS) break;
      const chars = JSON.stringify(item)?.length ?? 0;
      if (chars > MAX_ITEM_CHARS) continue;
      items.push(item);
      size += chars;
    }
    cursor = got.nextCursor;
    if (!cursor || items.length >= MAX_ITEMS || size >= MAX_LIST_CHARS) break;
  }
  return items;
}

/**
 * A request passed on (to a server for a client, or to a client for a server) whose refusal goes back
 * as it was given: the hub's SDK put "MCP error <code>: " before the message it received, and the
 * asker's own SDK puts it there again, so passed on as it is, every error through the hub said it once
 * more than directly.
 */
export async function passedOn<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    const prefix = `MCP error ${error.code}: `;
    if (!error.message.startsWith(prefix)) throw error;
    // The SDK server answers with a thrown error's code, message and data, whatever its class.
    throw Object.assign(new Error(error.message.slice(prefix.length)), { code: error.code, data: error.data });
  }
}

export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * Clipped before the log book masks known secrets: a secret the cut splits would no longer be
 * recognised, and its start be written. So the word the cut falls in goes whole.
 */
export function clipForLog(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = text.slice(0, max).replace(/[^\s"',;:(){}[\]<>]*$/u, '');
  return `${kept}… (${text.length - kept.length} more characters)`;
}

/** What a session's handlers reach: its SDK server, its set's running servers, and what the hub shares. */
export interface SessionContext {
  readonly server: Server;
  upstreams(): UpstreamServer[];
  readonly lists: ListCache;
  readonly log: Logger;
}
