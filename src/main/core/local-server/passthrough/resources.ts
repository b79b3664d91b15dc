import {
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
  type ResourceTemplate,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

import { pageOver } from './paging';
import type { Subscriptions } from './subscriptions';
import { MAX_MATCHED_TEMPLATES } from './template-match';
import { ANSWER_TIMEOUT_MS, clipText, passedOn, type SessionContext, supports, type UpstreamServer } from './upstream';
import { mapUri, type OwnedUri, ownerOf, prefixedUri, templateOwners, type UriOwners, uriOwners } from './uri-mapping';

/** Subscriptions one session holds at most: each is one the server keeps, and any URI a prefix names is taken. */
export const MAX_SESSION_SUBSCRIPTIONS = 500;

/** The JSON-RPC code the spec gives "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

export interface ResourceSession extends SessionContext {
  readonly subscriptions: Subscriptions;
  /** This session's subscriptions: the URI it was shown, and what it stands for. */
  readonly subscribed: Map<string, OwnedUri>;
}

interface ServerResources {
  server: UpstreamServer;
  resources: Resource[];
  templates: ResourceTemplate[];
}

/** The set's servers that offer resources, their lists, and who owns which URI. */
export async function resourceOwners(ctx: SessionContext): Promise<{ owners: UriOwners; lists: ServerResources[] }> {
  const lists = await Promise.all(
    ctx
      .upstreams()
      .filter((server) => supports(server, 'resources'))
      .map(async (server) => ({
        server,
        resources: await ctx.lists.get(server, 'resources'),
        templates: await ctx.lists.get(server, 'templates'),
      })),
  );
  const owners = uriOwners(
    new Map(
      lists.map((l) => [l.server.name, { uris: new Set(l.resources.map((r) => r.uri)), templates: l.templates.map((t) => t.uriTemplate) }]),
    ),
  );
  return { owners, lists };
}

/** A resource's name says its server (two servers' "config" are told apart in a picker). */
const shownName = (server: string, name: string) => `${server}/${name}`;

export function serveResources(ctx: ResourceSession): void {
  ctx.server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const { owners, lists } = await resourceOwners(ctx);
    const page = pageOver(
      lists.map((l) => ({ server: l.server.name, items: l.resources })),
      request.params?.cursor,
    );
    return {
      resources: page.items.map(({ server, item }) => ({
        ...item,
        uri: mapUri(owners, server, item.uri),
        name: shownName(server, item.name),
      })),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  });

  ctx.server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request) => {
    const { lists } = await resourceOwners(ctx);
    const owners = templateUriOwners(lists);
    // A server's templates past those matched claim no URI: shown prefixed, their URIs still reach it.
    const unmatched = new Set(lists.flatMap((l) => l.templates.slice(MAX_MATCHED_TEMPLATES)));
    const page = pageOver(
      lists.map((l) => ({ server: l.server.name, items: l.templates })),
      request.params?.cursor,
    );
    return {
      resourceTemplates: page.items.map(({ server, item }) => ({
        ...item,
        uriTemplate: unmatched.has(item) ? prefixedUri(server, item.uriTemplate) : mapUri(owners, server, item.uriTemplate),
        name: shownName(server, item.name),
      })),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  });

  ctx.server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { owners, lists } = await resourceOwners(ctx);
    const { owned, server } = located(owners, lists, request.params.uri);
    const result = await passedOn(() =>
      server.client.readResource({ uri: owned.uri }, { timeout: ANSWER_TIMEOUT_MS, signal: extra.signal }),
    );
    return { ...result, contents: result.contents.map((c) => ({ ...c, uri: mapUri(owners, owned.server, c.uri) })) };
  });

  ctx.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (ctx.subscribed.has(uri)) return {};
    const { owners, lists } = await resourceOwners(ctx);
    const { owned, server } = located(owners, lists, uri);
    if (!supports(server, 'subscribe'))
      throw new McpError(ErrorCode.InvalidRequest, `Server "${owned.server}" does not offer resource subscriptions`);
    // Held before the server answers, so that the same URI asked twice at once, or the session
    // going meanwhile, lets go of exactly what it took (else the server keeps it for ever).
    if (ctx.subscribed.has(uri)) return {};
    if (!upstreamNamed(ctx, owned.server)) throw notFound(uri);
    if (ctx.subscribed.size >= MAX_SESSION_SUBSCRIPTIONS)
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Too many resource subscriptions: a session holds at most ${MAX_SESSION_SUBSCRIPTIONS}; unsubscribe from one first`,
      );
    ctx.subscribed.set(uri, owned);
    try {
      await passedOn(() => ctx.subscriptions.add(server, owned.uri));
    } catch (error) {
      if (ctx.subscribed.get(uri) === owned) ctx.subscribed.delete(uri);
      throw error;
    }
    return {};
  });

  ctx.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    const owned = ctx.subscribed.get(request.params.uri);
    if (owned) {
      ctx.subscribed.delete(request.params.uri);
      ctx.subscriptions.remove(owned, upstreamNamed(ctx, owned.server));
    }
    return {};
  });
}

/** A session goes: the servers are told for the resources no other session holds. */
export function dropSubscriptions(ctx: ResourceSession): void {
  for (const owned of ctx.subscribed.values()) ctx.subscriptions.remove(owned, upstreamNamed(ctx, owned.server));
  ctx.subscribed.clear();
}

/** A server said one of its resources changed: told to this session under the URI it subscribed with. */
export function tellUpdated(ctx: ResourceSession, server: string, uri: string): void {
  for (const [shown, owned] of ctx.subscribed)
    if (owned.server === server && owned.uri === uri) ctx.server.sendResourceUpdated({ uri: shown }).catch(() => undefined);
}

/**
 * Resource links and embedded resources in what a server answered carry the URI this client reads
 * them by. Whole lists are read only when the result holds one.
 */
export async function mappedContent<T extends { content?: CallToolResult['content'] }>(
  ctx: SessionContext,
  server: string,
  result: T,
): Promise<T> {
  const content = result.content;
  if (!Array.isArray(content) || !content.some(holdsResource)) return result;
  const { owners } = await resourceOwners(ctx);
  return { ...result, content: content.map((c) => mappedItem(owners, server, c)) };
}

type ContentItem = CallToolResult['content'][number];

/** One content item with its resource's URI as the client reads it (other items as they are). */
export function mappedItem<C extends ContentItem>(owners: UriOwners, server: string, c: C): C {
  if (c.type === 'resource_link') return { ...c, uri: mapUri(owners, server, c.uri) };
  if (c.type === 'resource') return { ...c, resource: { ...c.resource, uri: mapUri(owners, server, c.resource.uri) } };
  return c;
}

export const holdsResource = (c: { type: string }): boolean => c.type === 'resource' || c.type === 'resource_link';

function located(owners: UriOwners, lists: ServerResources[], uri: string): { owned: OwnedUri; server: UpstreamServer } {
  const owned = ownerOf(owners, uri);
  const server = owned && lists.find((l) => l.server.name === owned.server)?.server;
  if (!owned || !server) throw notFound(uri);
  return { owned, server };
}

const notFound = (uri: string) =>
  new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${clipText(uri, 300)}`, { uri: clipText(uri, 300) });

/** Who owns which template (as a string): a completion names the template, not a URI. */
export function templateUriOwners(lists: ServerResources[]): UriOwners {
  return templateOwners(new Map(lists.map((l) => [l.server.name, l.templates.map((t) => t.uriTemplate)])));
}

function upstreamNamed(ctx: SessionContext, name: string): UpstreamServer | undefined {
  return ctx.upstreams().find((s) => s.name === name);
}
