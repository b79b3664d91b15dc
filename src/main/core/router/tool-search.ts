import MiniSearch from 'minisearch';

import { expandQuery } from './search-glossary';
import { isHan, searchTerms } from './search-text';
import { asksToUndo, isUndoTerm, saysItUndoes } from './undoing';

/** What the search knows of a tool: what the model would see, and where it comes from. */
export interface SearchEntry {
  /** The exposed name. */
  name: string;
  server: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface SearchHit<E extends SearchEntry> {
  entry: E;
  score: number;
}

/** Field weights: a tool's name says most, then what it says it does, then its server and arguments. */
const BOOST = { name: 2, description: 1, server: 1.2, args: 0.6 };
/** Words the query did not say but stands for (see search-glossary) count for less. */
const RELATED_WEIGHT = 0.7;
/** What the things it names are a kind of (rain → weather) count for less again. */
const BROADER_WEIGHT = 0.5;
/** What a question wants done counts for less still: it mostly breaks ties between a server's tools. */
const INTENT_WEIGHT = 0.25;
/** A hit scoring under this share of the best one is noise next to it, and is left out. */
const CUTOFF = 0.35;

/** Names, descriptions and enum values of a schema's arguments, nested ones included (bounded). */
export function argumentText(schema: unknown, depth = 0): string {
  if (depth > 3 || typeof schema !== 'object' || schema === null) return '';
  const s = schema as { properties?: unknown; items?: unknown; description?: unknown; enum?: unknown };
  const parts: string[] = [];
  if (depth > 0 && typeof s.description === 'string') parts.push(s.description);
  if (Array.isArray(s.enum)) parts.push(s.enum.filter((v) => typeof v === 'string').join(' '));
  if (typeof s.properties === 'object' && s.properties !== null) {
    for (const [name, property] of Object.entries(s.properties as Record<string, unknown>)) {
      parts.push(name, argumentText(property, depth + 1));
    }
  }
  if (s.items !== undefined) parts.push(argumentText(s.items, depth + 1));
  return parts.filter(Boolean).join(' ');
}

/**
 * A BM25 ranking (MiniSearch's BM25+) of tools by what a query says: over names split into words,
 * descriptions, argument names and descriptions, and server names, in English and Chinese. A score
 * counts the query's words by how directly they were said; what scores far below the best match
 * is left out rather than padding the answer. Built once per catalog; searching does not touch the entries.
 */
export class ToolSearch<E extends SearchEntry> {
  private readonly index: MiniSearch<{ id: number }>;
  /** Per entry, whether it says it deletes, removes or cancels: read on the first such request. */
  private readonly undoes: (boolean | undefined)[] = [];

  /** `serverWords`: what a server is called besides its internal name (its titles), searched as its name is. */
  constructor(
    private readonly entries: readonly E[],
    serverWords: (server: string) => string = (server) => server,
  ) {
    this.index = new MiniSearch<{ id: number }>({
      fields: ['name', 'description', 'args', 'server'],
      tokenize: (text) => searchTerms(text),
      processTerm: (term) => term,
    });
    this.index.addAll(
      entries.map((entry, id) => ({
        id,
        name: entry.name,
        description: entry.description,
        args: argumentText(entry.inputSchema),
        server: serverWords(entry.server),
      })),
    );
  }

  get size(): number {
    return this.entries.length;
  }

  /** The best `limit` tools for the query, best first, without weak ones; none when nothing in it matches. */
  search(query: string, limit: number): SearchHit<E>[] {
    const terms = searchTerms(query);
    const { related, broader, intent, question } = expandQuery(query, terms);
    if (terms.length === 0 && related.length === 0) return [];
    const weights = new Map<string, number>([
      ...intent.map((t) => [t, INTENT_WEIGHT] as const),
      ...broader.map((t) => [t, BROADER_WEIGHT] as const),
      ...related.map((t) => [t, RELATED_WEIGHT] as const),
    ]);
    const said = new Set(terms);
    const results = this.index.search([...new Set([...terms, ...related, ...broader, ...intent])].join(' '), {
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term,
      boost: BOOST,
      boostTerm: (term) => weights.get(term) ?? 1,
      // "remind" finds "reminders"; short words, Chinese bigrams and added words must match whole.
      prefix: (term) => term.length >= 5 && said.has(term) && !isHan(term),
      combineWith: 'OR',
    });
    // MiniSearch multiplies a score by how many query terms matched, counting a word the query
    // only implies like one it says: a tool that shares only "search" and "query" with what a
    // question implies beat the one tool that does what it says. Count each by its weight instead.
    const intents = new Set(intent);
    // To delete or cancel something, only a tool that does so, and (when the query says what) for that thing.
    const undo = asksToUndo(query, terms);
    const what = undo && [...terms, ...related, ...broader].some((term) => !isUndoTerm(term));
    const scored = results
      .filter(
        (r) =>
          !undo || (this.saysItUndoes(r.id as number) && (!what || r.queryTerms.some((term) => !isUndoTerm(term) && !intents.has(term)))),
      )
      .map((r) => ({
        id: r.id as number,
        score: (r.score / Math.max(1, r.queryTerms.length)) * r.queryTerms.reduce((sum, term) => sum + (weights.get(term) ?? 1), 0),
        onlyIntent: r.queryTerms.every((term) => intents.has(term)),
      }));
    // What a query wants done only breaks ties: it makes no tool a match when others match what it says.
    // A question matching nothing else may still want a tool that searches ("what do you know about
    // Alice"); a statement naming nothing a tool says ("xyzzy", "你好") finds none, not every tool
    // that adds or creates something.
    const matched = scored
      .filter((r) => !r.onlyIntent || (question && scored.every((o) => o.onlyIntent)))
      .sort((a, b) => b.score - a.score || a.id - b.id);
    const best = matched[0]?.score ?? 0;
    return matched
      .filter((r) => r.score >= best * CUTOFF)
      .slice(0, limit)
      .map((r) => ({ entry: this.entries[r.id] as E, score: r.score }));
  }

  private saysItUndoes(id: number): boolean {
    let undoes = this.undoes[id];
    if (undoes === undefined) {
      const entry = this.entries[id] as E;
      undoes = saysItUndoes(`${entry.name} ${entry.description} ${argumentText(entry.inputSchema)}`);
      this.undoes[id] = undoes;
    }
    return undoes;
  }
}
