import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

import { type Language, type MessageKey, translate } from '../../../shared/i18n/translate';
import type { CallOutcome } from '../../../shared/status';
import { BUILTIN_SERVER } from '../hub/builtin/builtin-tools';
import { responseBytes, resultText, shapeResult, textResult } from '../hub/result-shaping';
import type { CallAnswer, CallContext } from '../hub/tool-hub';
import { servedSchema } from '../hub/tool-hub';
import { type PreparedTool, prepareTool } from '../hub/tool-pages';
import type { CallHistory } from '../logs/call-history';
import { CALL_TOOL, callToolTool, DEFAULT_LIMIT, FIND_TOOLS, findToolsTool, MAX_LIMIT, summarizeServers } from './router-tools';
import { type ServerTitle, spokenServers } from './spoken-servers';
import { type SearchEntry, type SearchHit, ToolSearch } from './tool-search';
import { asksToUndo } from './undoing';

/** A tool of the set the router searches: what the hub's catalog says of it. */
export interface RouterEntry extends SearchEntry {
  enabled: boolean;
}

/** Where the router's tools come from and go to: the hub (or, later, one tool set of it). */
export interface RouterSource {
  /** Bumped whenever what `catalog()` returns changes. */
  readonly version: number;
  catalog(): RouterEntry[];
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer>;
}

export interface ToolRouterOptions {
  source: RouterSource;
  history: CallHistory;
  maxMessageBytes: () => number;
  /** The voice language: what find_tools and call_tool say, and their answers (absent: English). */
  language?: () => Language;
  /** A catalogue server's title: servers are named to the model as the window names them. */
  serverTitle?: ServerTitle;
}

interface Built {
  version: number;
  language: Language;
  entries: RouterEntry[];
  byName: Map<string, RouterEntry>;
  /** Tools of the catalog the user switched off: not found, but named as off when called. */
  off: Set<string>;
  find: PreparedTool;
  call: PreparedTool;
  /** Each server as the model names it to the person (its title when it came from the catalogue). */
  spoken: Map<string, string>;
  /** Built on the first search: status and paging need only the names. */
  search?: ToolSearch<RouterEntry>;
}

/**
 * Router mode: serves `find_tools` and `call_tool` (plus pinned tools) in place of a catalog too
 * big for xiaozhi, searches the catalog for the model, and passes calls on through the hub's one
 * call path (names, switches, argument checks, timeouts, shaping, history). The search index is
 * rebuilt the first time it is needed after the catalog changed.
 */
export class ToolRouter {
  private built: Built | undefined;

  constructor(private readonly options: ToolRouterOptions) {}

  /** Tools the router can find (the enabled tools of the catalog). */
  get searchable(): number {
    return this.current().entries.length;
  }

  /**
   * What an endpoint in router mode is served, sorted by name: find_tools, call_tool, the bridge's
   * own tools that are listed now (task_status, cancel_task, confirm_action while a tool asks first:
   * the model must be able to call them when an answer names them) and the pinned tools that exist.
   */
  served(pinned: readonly string[]): PreparedTool[] {
    const built = this.current();
    const tools = [built.find, built.call];
    const own = built.entries.filter((e) => e.server === BUILTIN_SERVER).map((e) => e.name);
    for (const name of new Set([...own, ...pinned])) {
      const entry = built.byName.get(name);
      if (!entry || name === FIND_TOOLS || name === CALL_TOOL) continue;
      tools.push(
        prepareTool({ name, description: entry.description, inputSchema: servedSchema(entry.inputSchema as Tool['inputSchema']) }),
      );
    }
    return tools.sort((a, b) => (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0));
  }

  /** The best tools for a query (for find_tools, and for the window's "try a search"). */
  search(query: string, limit = DEFAULT_LIMIT): SearchHit<RouterEntry>[] {
    const built = this.current();
    built.search ??= new ToolSearch(built.entries, (server) => this.serverWords(server));
    return built.search.search(query, Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit))));
  }

  /** A tools/call in router mode: find_tools and call_tool here, anything else straight to the hub. */
  async call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    if (name === FIND_TOOLS) return this.findTools(args, context);
    if (name === CALL_TOOL) return this.callTool(args, context);
    return this.options.source.call(name, args, context);
  }

  /**
   * A server as a search finds it: its internal name and its titles in both languages, since the model
   * and the person name it by the title find_tools lists (本机文件), in either language.
   */
  private serverWords(server: string): string {
    const title = this.options.serverTitle;
    if (!title) return server;
    return [server, title(server, 'zh-CN'), title(server, 'en')].filter((word) => word !== undefined).join(' ');
  }

  private language(): Language {
    return this.options.language?.() ?? 'en';
  }

  private say(key: MessageKey, params?: Record<string, string | number>): string {
    return translate(this.language(), key, params);
  }

  private current(): Built {
    const version = this.options.source.version;
    const language = this.language();
    if (this.built?.version === version && this.built.language === language) return this.built;
    const catalog = this.options.source.catalog();
    const entries = catalog.filter((e) => e.enabled);
    const servers = summarizeServers(entries);
    const spoken = spokenServers(
      servers.map((s) => s.server),
      language,
      this.options.serverTitle,
    );
    this.built = {
      version,
      language,
      entries,
      byName: new Map(entries.map((e) => [e.name, e])),
      off: new Set(catalog.filter((e) => !e.enabled).map((e) => e.name)),
      find: prepareTool(findToolsTool(servers, entries.length, language, spoken)),
      call: prepareTool(callToolTool(language)),
      spoken,
    };
    return this.built;
  }

  private findTools(args: Record<string, unknown>, context: CallContext): CallAnswer {
    const started = performance.now();
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (!query) {
      return this.record(context, FIND_TOOLS, args, started, textResult(this.say('voice.router.noQuery'), true));
    }
    const limit = typeof args.limit === 'number' && Number.isFinite(args.limit) ? args.limit : DEFAULT_LIMIT;
    const hits = this.search(query, limit);
    // Nothing deletes or cancels it: said so, lest the model reach for a tool that writes or creates instead.
    if (hits.length === 0 && asksToUndo(query))
      return this.record(context, FIND_TOOLS, args, started, textResult(this.say('voice.router.noMatchUndo', { query: echoed(query) })));
    if (hits.length === 0) {
      const { spoken } = this.current();
      const servers = [...spoken.values()].sort((a, b) => a.localeCompare(b));
      return this.record(
        context,
        FIND_TOOLS,
        args,
        started,
        textResult(
          [
            this.say('voice.router.noMatch', { query: echoed(query) }),
            servers.length
              ? this.say('voice.router.noMatchServers', { servers: servers.join(this.say('voice.words.list')) })
              : this.say('voice.router.find.none'),
          ].join(this.say('voice.words.sentences')),
        ),
      );
    }
    return this.record(context, FIND_TOOLS, args, started, this.fitHits(query, hits, context.idJson ?? '0'));
  }

  /** The hits as JSON the model can act on, dropping the weakest ones if the answer would not fit. */
  private fitHits(query: string, hits: SearchHit<RouterEntry>[], idJson: string): CallToolResult {
    const maxBytes = this.options.maxMessageBytes();
    const { spoken } = this.current();
    for (let count = hits.length; ; count--) {
      const tools = hits.slice(0, count).map(({ entry }) => ({
        name: entry.name,
        server: spoken.get(entry.server) ?? entry.server,
        description: entry.description,
        inputSchema: servedSchema(entry.inputSchema as Tool['inputSchema']),
      }));
      const result = textResult(
        JSON.stringify({
          query: echoed(query),
          tools,
          next: this.say('voice.router.next'),
        }),
      );
      if (count === 1 || responseBytes(result, idJson) <= maxBytes) return result;
    }
  }

  private async callTool(args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    const started = performance.now();
    const name = typeof args.name === 'string' ? args.name.trim() : '';
    if (!name) return this.record(context, CALL_TOOL, args, started, textResult(this.say('voice.router.noName'), true));
    let inner: unknown = args.arguments ?? {};
    // Models sometimes send the arguments object as a JSON string.
    if (typeof inner === 'string') {
      try {
        inner = JSON.parse(inner || '{}');
      } catch {
        return this.record(context, name, args, started, textResult(this.say('voice.router.argumentsNotJson', { tool: name }), true));
      }
    }
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) {
      return this.record(context, name, args, started, textResult(this.say('voice.router.argumentsNotObject', { tool: name }), true));
    }
    const built = this.current();
    const known = built.byName.has(name);
    // A server's own find_tools or call_tool (a gateway with a search of its own) goes to that server.
    if (name === FIND_TOOLS && !known) return this.findTools(inner as Record<string, unknown>, context);
    if (name === CALL_TOOL && !known)
      return this.record(context, name, args, started, textResult(this.say('voice.router.callItself'), true));
    // The hub says it is switched off (and records that), rather than suggest other tools for the job.
    if (built.off.has(name)) return this.options.source.call(name, inner as Record<string, unknown>, context);
    if (!known) {
      const like = this.search(name.replace(/[_-]+/g, ' '), 3).map((h) => h.entry.name);
      return this.record(
        context,
        name,
        inner,
        started,
        textResult(
          [
            this.say('voice.router.noSuchTool', { tool: name }),
            ...(like.length
              ? [
                  this.say('voice.router.didYouMean', {
                    names: like.map((n) => this.say('voice.words.quoted', { text: n })).join(this.say('voice.words.list')),
                  }),
                ]
              : []),
            this.say('voice.router.useFind'),
          ].join(this.say('voice.words.sentences')),
          true,
        ),
      );
    }
    // A long call goes on as a task named after the tool it runs, not "call tool".
    context.nameTask?.(name);
    return this.options.source.call(name, inner as Record<string, unknown>, context);
  }

  /** The router's own answers are shaped and recorded like every call (their text says what was wrong: no problem to word). */
  private record(context: CallContext, tool: string, args: unknown, started: number, result: CallToolResult): CallAnswer {
    const shaped = shapeResult(result, this.options.maxMessageBytes(), context.idJson ?? '0', this.language());
    const outcome: CallOutcome = shaped.isError ? 'error' : 'ok';
    this.options.history.add({
      caller: context.caller,
      tool,
      originalTool: tool,
      server: '',
      arguments: args,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      outcome,
      result: resultText(shaped),
    });
    return { result: shaped };
  }
}

/** Characters of the query said back in find_tools' answer: a long one must not crowd out the tools. */
const MAX_ECHOED_QUERY = 200;

function echoed(query: string): string {
  const chars = [...query];
  return chars.length > MAX_ECHOED_QUERY ? `${chars.slice(0, MAX_ECHOED_QUERY - 1).join('')}…` : query;
}
