import { type Language, translate } from '../../../shared/i18n/translate';
import type { ServedTool } from '../hub/tool-pages';
import { splitWords } from './search-text';

/**
 * The two tools router mode serves in place of the whole catalog. find_tools' description is the
 * model's only view of what exists before it searches, so it names every server with a short
 * summary and says how to phrase a query.
 */

export const FIND_TOOLS = 'find_tools';
export const CALL_TOOL = 'call_tool';
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 10;

/** Servers named in find_tools' description beyond which the rest are only counted. */
const MAX_SERVERS_LISTED = 30;
const EXAMPLES_PER_SERVER = 4;

export interface ServerSummary {
  server: string;
  toolCount: number;
  /** A few tool names that between them cover most of what the server does. */
  examples: string[];
}

/** Verbs every kind of server uses: they say nothing about what a server is for. */
const GENERIC = new Set([
  'get',
  'list',
  'set',
  'create',
  'add',
  'delete',
  'remove',
  'update',
  'search',
  'find',
  'read',
  'write',
  'query',
  'fetch',
  'by',
  'of',
  'to',
  'in',
  'all',
  'new',
  'hass',
]);

/**
 * Picks a few tool names that between them say what a server is for: each pick covers the most
 * themes of the server not yet covered (a word counts by how many of its tools share it; words in
 * most of them, like a `maps_` prefix, and generic verbs count for nothing), per word of the name.
 * So `github` shows issues, pull requests, workflows… rather than five get_pull_request_*.
 */
export function representativeNames(names: readonly string[], count = EXAMPLES_PER_SERVER): string[] {
  const words = new Map(names.map((name) => [name, [...new Set(splitWords(name).map((w) => w.toLowerCase()))]]));
  const frequency = new Map<string, number>();
  for (const list of words.values()) for (const word of list) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const weight = (word: string) => {
    const f = frequency.get(word) ?? 0;
    return GENERIC.has(word) || (names.length > 3 && f > names.length / 2) ? 0 : f;
  };
  const seen = new Set<string>();
  const picked: string[] = [];
  const left = [...names].sort((a, b) => a.length - b.length || a.localeCompare(b));
  while (picked.length < count && left.length > 0) {
    let best = 0;
    let bestScore = -1;
    left.forEach((name, index) => {
      const list = words.get(name) ?? [];
      const score = list.filter((w) => !seen.has(w)).reduce((sum, w) => sum + weight(w), 0) / Math.max(1, list.length);
      if (score > bestScore) {
        best = index;
        bestScore = score;
      }
    });
    const [name] = left.splice(best, 1) as [string];
    picked.push(name);
    for (const word of words.get(name) ?? []) seen.add(word);
  }
  return picked;
}

export function summarizeServers(tools: readonly { name: string; server: string }[]): ServerSummary[] {
  const byServer = new Map<string, string[]>();
  for (const tool of tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool.name]);
  return [...byServer.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([server, names]) => ({ server, toolCount: names.length, examples: representativeNames(names) }));
}

/** find_tools as the model reads it, in the voice language. */
export function findToolsTool(
  servers: readonly ServerSummary[],
  searchable: number,
  language: Language = 'en',
  spoken: ReadonlyMap<string, string> = new Map(),
): ServedTool {
  const t = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) => translate(language, key, params);
  const listed = servers.slice(0, MAX_SERVERS_LISTED).map((s) =>
    t('voice.router.find.server', {
      server: spoken.get(s.server) ?? s.server,
      count: s.toolCount,
      examples: `${s.examples.join(', ')}${s.toolCount > s.examples.length ? ', …' : ''}`,
    }),
  );
  if (servers.length > MAX_SERVERS_LISTED) listed.push(t('voice.router.find.moreServers', { count: servers.length - MAX_SERVERS_LISTED }));
  const description = [
    t('voice.router.find.intro', { count: searchable }),
    searchable > 0 ? `${t('voice.router.find.servers')}\n${listed.join('\n')}` : t('voice.router.find.none'),
    t('voice.router.find.how'),
  ].join('\n');
  return {
    name: FIND_TOOLS,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: t('voice.router.find.query') },
        limit: { type: 'integer', description: t('voice.router.find.limit', { max: MAX_LIMIT, default: DEFAULT_LIMIT }) },
      },
      required: ['query'],
    },
  };
}

/** call_tool as the model reads it, in the voice language. */
export function callToolTool(language: Language = 'en'): ServedTool {
  return {
    name: CALL_TOOL,
    description: translate(language, 'voice.router.call.description'),
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: translate(language, 'voice.router.call.name') },
        arguments: { type: 'object', description: translate(language, 'voice.router.call.arguments') },
      },
      required: ['name'],
    },
  };
}
