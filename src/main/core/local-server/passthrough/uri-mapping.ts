import { MAX_MATCHED_TEMPLATES, type TemplateMatcher, templateMatcher } from './template-match';

/**
 * Resource URIs of several servers, as one client sees them. A URI stays as its server gave it
 * when that server is the only one of the set to claim it (or the set's only server with
 * resources); otherwise it is `xiaozhi-tray://<server, %-encoded>/<the URI as given>`. The encoded
 * name holds no `/`, so the first `/` after it splits the two back exactly, whatever the URI holds.
 * A server's own URI that already starts with the prefix is always prefixed again (so it maps back).
 */
export const HUB_URI_PREFIX = 'xiaozhi-tray://';

/** The servers of one client's set that offer resources, and whether one of them claims a URI. */
export interface UriOwners {
  /** Sorted by name. */
  readonly servers: readonly string[];
  claims(server: string, uri: string): boolean;
}

export interface OwnedUri {
  server: string;
  uri: string;
}

export function prefixedUri(server: string, uri: string): string {
  return `${HUB_URI_PREFIX}${encodeURIComponent(server)}/${uri}`;
}

function splitPrefixed(uri: string): OwnedUri | undefined {
  if (!uri.startsWith(HUB_URI_PREFIX)) return undefined;
  const rest = uri.slice(HUB_URI_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return undefined;
  try {
    return { server: decodeURIComponent(rest.slice(0, slash)), uri: rest.slice(slash + 1) };
  } catch {
    return undefined;
  }
}

/** The URI a client is shown for `server`'s `uri`. */
export function mapUri(owners: UriOwners, server: string, uri: string): string {
  if (uri.startsWith(HUB_URI_PREFIX)) return prefixedUri(server, uri);
  if (owners.servers.some((other) => other !== server && owners.claims(other, uri))) return prefixedUri(server, uri);
  const alone = owners.servers.length === 1 && owners.servers[0] === server;
  return alone || owners.claims(server, uri) ? uri : prefixedUri(server, uri);
}

/** The server and its own URI a client's URI stands for; undefined when none (or several) could. */
export function ownerOf(owners: UriOwners, uri: string): OwnedUri | undefined {
  const split = splitPrefixed(uri);
  if (split) return owners.servers.includes(split.server) ? split : undefined;
  const claimants = owners.servers.filter((server) => owners.claims(server, uri));
  if (claimants.length === 1) return { server: claimants[0] as string, uri };
  if (claimants.length === 0 && owners.servers.length === 1) return { server: owners.servers[0] as string, uri };
  return undefined;
}

/** Owners from each server's listed URIs (exact) and templates (a URI they expand to: its first MAX_MATCHED_TEMPLATES). */
export function uriOwners(lists: ReadonlyMap<string, { uris: ReadonlySet<string>; templates: readonly string[] }>): UriOwners {
  const matchers = new Map<string, TemplateMatcher[]>();
  for (const [server, { templates }] of lists)
    matchers.set(
      server,
      templates.slice(0, MAX_MATCHED_TEMPLATES).flatMap((t) => templateMatcher(t) ?? []),
    );
  return {
    servers: [...lists.keys()].sort(),
    claims: (server, uri) => lists.get(server)?.uris.has(uri) === true || (matchers.get(server) ?? []).some((t) => t.matches(uri)),
  };
}

/** Owners of template strings themselves (a completion names the template). */
export function templateOwners(lists: ReadonlyMap<string, readonly string[]>): UriOwners {
  const sets = new Map([...lists].map(([server, templates]) => [server, new Set(templates)]));
  return { servers: [...lists.keys()].sort(), claims: (server, uri) => sets.get(server)?.has(uri) === true };
}
