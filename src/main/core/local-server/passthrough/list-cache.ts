import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

import type { Logger } from '../../logs/log-book';
import { askQuietly, LIST_TIMEOUT_MS, listAll, supports, type UpstreamServer } from './upstream';

interface Lists {
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
}
export type ListKind = keyof Lists;

/**
 * Each server's whole resource, template and prompt lists, read once and kept until it announces
 * a change or goes down: names and URIs are decided over whole lists, and every session shares
 * them. A server that fails a list (or does not offer it) counts as offering nothing, and is asked
 * again next time.
 */
export class ListCache {
  private readonly kept = new Map<string, { client: Client; lists: Partial<Record<ListKind, Promise<unknown[]>>> }>();

  constructor(private readonly log: Logger) {}

  get<K extends ListKind>(server: UpstreamServer, kind: K): Promise<Lists[K]> {
    let entry = this.kept.get(server.name);
    // A restarted server has a new client: what the old one listed is not its.
    if (!entry || entry.client !== server.client) {
      entry = { client: server.client, lists: {} };
      this.kept.set(server.name, entry);
    }
    const held = entry.lists[kind];
    if (held) return held as Promise<Lists[K]>;
    const reading = this.read(server, kind);
    entry.lists[kind] = reading;
    const kept = entry;
    void reading.then((items) => {
      if (items === FAILED && kept.lists[kind] === reading) delete kept.lists[kind];
    });
    return reading as Promise<Lists[K]>;
  }

  /** The server changed what it offers (or came up, or went down). */
  forget(server: string, kinds?: ListKind[]): void {
    const entry = this.kept.get(server);
    if (!entry) return;
    if (!kinds) this.kept.delete(server);
    else for (const kind of kinds) delete entry.lists[kind];
  }

  private async read(server: UpstreamServer, kind: ListKind): Promise<unknown[]> {
    const { client, name } = server;
    const options = { timeout: LIST_TIMEOUT_MS };
    const feature = kind === 'prompts' ? 'prompts' : 'resources';
    if (!supports(server, feature)) return [];
    const what = kind === 'templates' ? 'resources/templates/list' : `${kind}/list`;
    const items = await askQuietly(this.log, name, what, () =>
      listAll<unknown>(async (cursor) => {
        const params = cursor ? { cursor } : {};
        if (kind === 'prompts') {
          const page = await client.listPrompts(params, options);
          return { items: page.prompts, nextCursor: page.nextCursor };
        }
        if (kind === 'resources') {
          const page = await client.listResources(params, options);
          return { items: page.resources, nextCursor: page.nextCursor };
        }
        const page = await client.listResourceTemplates(params, options);
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }),
    );
    return items ?? FAILED;
  }
}

/** What a failed list counts as (one object, so that it is not kept). */
const FAILED: never[] = [];
