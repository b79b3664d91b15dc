import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { Language } from '../../../shared/i18n/translate';
import { DEFAULT_TOOL_SET, type NamingPolicy, type ToolSet } from '../../../shared/settings';
import type { CatalogSummary, CatalogTool, ToolSetSummary } from '../../../shared/status';
import type { CallHistory } from '../logs/call-history';
import type { Logger } from '../logs/log-book';
import { ArgumentCheck } from './argument-check';
import { responseBytes } from './result-shaping';
import type { Page, ServedTool } from './tool-pages';
import {
  type CallAnswer,
  type CallContext,
  type ToolRef,
  ToolSetView,
  type ToolSource,
  type ViewContext,
  type VoiceGuard,
} from './tool-set-view';

export { servedSchema } from '../servers/served-schema';
export type { CallAnswer, CallContext, CatalogView, ToolSource } from './tool-set-view';
export { ToolSetView } from './tool-set-view';

/**
 * The sources in their order, and (when the owner can) the one called a name: a call looks its server
 * up by name, and listing every source for each call cost a sort and three arrays.
 */
export interface SourceLookup {
  all(): Iterable<ToolSource>;
  named(name: string): ToolSource | undefined;
}

export interface HubSettings {
  naming: NamingPolicy;
  /** Always holds the default set ("all"). */
  toolSets: ToolSet[];
  maxMessageBytes: number;
  /** Servers whose calls are not checked against their input schemas. */
  argumentChecksOff?: ReadonlySet<string>;
  /** What each server runs, in a word: the prefix of a server whose name has no letter a tool name may carry. */
  programs?: ReadonlyMap<string, string>;
  /** The user's language (absent: English): what the bridge itself answers a call with is worded in it. */
  language?: Language;
}

/**
 * Owns tool names and routing for every consumer: one view per tool set, each with its own names,
 * pages, version (for `list_changed`) and routing, all over the same running servers. The hub's
 * own catalog methods are the default set's.
 */
export class ToolHub {
  private readonly views = new Map<string, ToolSetView>();
  private readonly listeners = new Set<(setId: string) => void>();
  private readonly context: ViewContext;

  private readonly sources: () => Iterable<ToolSource>;

  constructor(
    sources: (() => Iterable<ToolSource>) | SourceLookup,
    private settings: HubSettings,
    history: CallHistory,
    log: Logger,
    voice?: VoiceGuard,
    redact?: (text: string) => string,
  ) {
    const all = typeof sources === 'function' ? sources : () => sources.all();
    this.sources = all;
    this.context = {
      sources: all,
      source:
        typeof sources === 'function'
          ? (name) => {
              for (const source of all()) if (source.name === name) return source;
              return undefined;
            }
          : (name) => sources.named(name),
      history,
      log,
      maxMessageBytes: () => this.settings.maxMessageBytes,
      argumentCheck: new ArgumentCheck(log),
      argumentChecksOff: () => this.settings.argumentChecksOff,
      language: () => this.language,
      voice,
      redact,
    };
    this.syncViews();
  }

  updateSettings(settings: HubSettings): void {
    this.settings = settings;
    this.rebuild();
  }

  /** The user's language, as the settings say: errors the bridge words for the model are in it. */
  get language(): Language {
    return this.settings.language ?? 'en';
  }

  /** A server's title in `language` when it came from the catalogue (as the window names it); else undefined. */
  serverTitle(server: string, language: Language): string | undefined {
    return this.context.voice?.serverTitle?.(server, language);
  }

  /** The default set's version, bumped whenever what it serves changes. */
  get version(): number {
    return this.defaultView.version;
  }

  /** Called with the id of each set whose served catalog changed. */
  onChange(listener: (setId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The view of a set by id; the default set when the id names none (a reference left behind). */
  forSet(id: string | undefined): ToolSetView {
    return this.views.get(id ?? DEFAULT_TOOL_SET) ?? this.defaultView;
  }

  /** Recomputes every set from the running servers; notifies for each set whose catalog changed. */
  rebuild(): void {
    // Every enabled server's tools, up or not: a name depends on the configuration, never on which servers are up.
    const refs: ToolRef[] = [];
    for (const source of this.sources()) {
      if (source.isRunning) for (const tool of source.currentTools) refs.push({ server: source.name, tool, running: true });
      else if (source.enabled) for (const tool of source.knownTools) refs.push({ server: source.name, tool, running: false });
    }
    this.syncViews();
    const programs = this.settings.programs ?? new Map<string, string>();
    const changed: string[] = [];
    for (const set of this.settings.toolSets) {
      if ((this.views.get(set.id) as ToolSetView).rebuild(refs, set, this.settings.naming, programs)) changed.push(set.id);
    }
    for (const id of changed) for (const listener of this.listeners) listener(id);
  }

  /** True when the default set has a tool of this exposed name (enabled or not). */
  has(name: string): boolean {
    return this.defaultView.has(name);
  }

  /** Every set's name and size, for the status. */
  summaries(): ToolSetSummary[] {
    return this.settings.toolSets.map((set) => ({ id: set.id, name: set.name, ...this.forSet(set.id).summary() }));
  }

  /** Every tool of every running server in the default set, enabled or not (for the UI). */
  catalog(): CatalogTool[] {
    return this.defaultView.catalog();
  }

  summary(): CatalogSummary {
    return this.defaultView.summary();
  }

  /** One `tools/list` page of the default set. */
  page(cursor: string | undefined, idJson: string): { tools: ServedTool[]; nextCursor?: string } {
    return this.defaultView.page(cursor, idJson);
  }

  pages(idJson = '1'): Page[] {
    return this.defaultView.pages(idJson);
  }

  /** A call through the default set (the window's "Try it"). */
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    return this.defaultView.call(name, args, context);
  }

  /** Size of a tools/call response for the UI's "as xiaozhi would receive it". */
  responseBytes(result: CallToolResult, idJson = '0'): number {
    return responseBytes(result, idJson);
  }

  private get defaultView(): ToolSetView {
    return this.views.get(DEFAULT_TOOL_SET) as ToolSetView;
  }

  /** One view per configured set (the default always): views of removed sets go, new sets get one. */
  private syncViews(): void {
    const ids = new Set(this.settings.toolSets.map((set) => set.id));
    ids.add(DEFAULT_TOOL_SET);
    for (const id of [...this.views.keys()]) if (!ids.has(id)) this.views.delete(id);
    for (const set of this.settings.toolSets)
      if (!this.views.has(set.id)) this.views.set(set.id, new ToolSetView(set.id, set.name, this.context));
    if (!this.views.has(DEFAULT_TOOL_SET))
      this.views.set(DEFAULT_TOOL_SET, new ToolSetView(DEFAULT_TOOL_SET, DEFAULT_TOOL_SET, this.context));
  }
}
