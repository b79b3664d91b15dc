import type { ServedCatalog, ServedSummary } from '../../../shared/served';
import type { ServedMode, ToolMode } from '../../../shared/settings';
import type { ToolHub, ToolSetView } from '../hub/tool-hub';
import { allPages, type Page, pageAt, type ServedTool } from '../hub/tool-pages';
import type { CatalogView } from '../hub/tool-set-view';
import type { CallHistory } from '../logs/call-history';
import { CALL_TOOL, FIND_TOOLS } from '../router/router-tools';
import { ToolRouter } from '../router/tool-router';
import { SettlingTools } from './settling-tools';

/**
 * The one seam between an endpoint link and the tools it serves: what `tools/list` pages and
 * `tools/call` reach for this endpoint. In `all` mode that is the endpoint's tool set; in `router`
 * mode, find_tools and call_tool (plus pinned tools) over that same set. It answers like a tool set's
 * catalog view (version bumped by a mode switch too); router mode's own find_tools and call_tool are
 * no concrete tools: `has` and `identityOf` know only the set's tools.
 */
export type EndpointTools = Omit<CatalogView, 'id'>;

export interface EndpointMode {
  toolMode: ToolMode;
  pinned: readonly string[];
  /** The tool set it serves (absent: the default set). */
  toolSet?: string | undefined;
}

export interface EndpointCatalogsOptions {
  hub: ToolHub;
  history: CallHistory;
  /** The current mode of an endpoint (read at every request, so a switch needs no reconnect). */
  mode: (endpointId: string) => EndpointMode;
  maxMessageBytes: () => number;
  /** Resolves when the servers still starting are up or out of grace: lists (and calls of names not there yet) wait for it. */
  startSettled: () => Promise<void>;
  /** What an endpoint can be served before xiaozhi struggles: past it, `auto` serves search (absent: everything fits). */
  budget?: () => { budgetTools: number; budgetBytes: number };
}

/** A mode as served at this moment: `auto` resolved to `all` or `router`. */
type ServedAs = EndpointMode & { toolMode: ServedMode };

export class EndpointCatalogs {
  /** One router per tool set, made when an endpoint on that set first needs it. */
  private readonly routers = new Map<string, ToolRouter>();
  /** An `auto` mode's two resolutions, made once per mode object (read at every call). */
  private readonly autoModes = new WeakMap<EndpointMode, { all: ServedAs; router: ServedAs }>();
  /** One waiting wrapper per view, so a session can tell whether its client's set moved. */
  private readonly settlingViews = new WeakMap<ToolSetView, SettlingTools<ToolSetView>>();

  constructor(private readonly options: EndpointCatalogsOptions) {}

  /** The router over a set (the default set when none is named): find_tools' search. */
  router(toolSet?: string): ToolRouter {
    const view = this.options.hub.forSet(toolSet);
    let router = this.routers.get(view.id);
    if (!router) {
      router = new ToolRouter({
        source: {
          get version() {
            return view.version;
          },
          catalog: () => view.catalog(),
          call: (name, args, context) => view.call(name, args, context),
        },
        history: this.options.history,
        maxMessageBytes: this.options.maxMessageBytes,
        language: () => this.options.hub.language,
        serverTitle: (server, language) => this.options.hub.serverTitle(server, language),
      });
      this.routers.set(view.id, router);
    }
    return router;
  }

  /** Routers of sets that no longer exist go (a new set of the same id starts fresh). */
  forgetRemovedSets(ids: ReadonlySet<string>): void {
    for (const id of [...this.routers.keys()]) if (!ids.has(id)) this.routers.delete(id);
  }

  /** What the link of this endpoint serves, following its mode and set as they change (waiting for servers still starting). */
  forEndpoint(endpointId: string): SettlingTools<EndpointTools> {
    let key = '';
    let version = 0;
    const currentVersion = () => {
      const now = this.key(endpointId);
      if (now !== key) {
        key = now;
        version++;
      }
      return version;
    };
    const tools: EndpointTools = {
      get version() {
        return currentVersion();
      },
      page: (cursor, idJson) => this.page(endpointId, cursor, idJson),
      has: (name) => this.viewOf(this.modeOf(endpointId)).has(name),
      identityOf: (name) => {
        const mode = this.modeOf(endpointId);
        return mode.toolMode === 'router' && (name === FIND_TOOLS || name === CALL_TOOL) ? undefined : this.viewOf(mode).identityOf(name);
      },
      nameOf: (tool) => this.viewOf(this.modeOf(endpointId)).nameOf(tool),
      call: (name, args, context) => {
        const mode = this.modeOf(endpointId);
        if (mode.toolMode === 'router') return this.router(mode.toolSet).call(name, args, context);
        const view = this.viewOf(mode);
        // A session served search before keeps it: xiaozhi lists once per session, and `auto` serving every
        // tool again (a server down, the set fitting again) must not leave it with names that no longer work.
        return isRouterTool(name) && !view.has(name) ? this.router(mode.toolSet).call(name, args, context) : view.call(name, args, context);
      },
    };
    return new SettlingTools(() => tools, this.options.startSettled);
  }

  /** A tool set's view (the default set when none is named), waiting for servers still starting: a local client's, the window's. */
  forSet(toolSet?: string): SettlingTools<ToolSetView> {
    const view = this.options.hub.forSet(toolSet);
    let settling = this.settlingViews.get(view);
    if (!settling) {
      settling = new SettlingTools(() => view, this.options.startSettled);
      this.settlingViews.set(view, settling);
    }
    return settling;
  }

  /** How much this endpoint is served: tools, bytes, pages (for the window's budget). */
  summary(endpointId: string): ServedSummary {
    return this.summaryFor(this.options.mode(endpointId));
  }

  /** The same for a mode (the CLI's `tools --tool-mode`). */
  summaryFor(chosen: EndpointMode): ServedSummary {
    const mode = this.resolve(chosen);
    const set = this.viewOf(mode).summary();
    const userTools = Math.max(0, set.toolCount - (set.appTools ?? 0));
    if (mode.toolMode === 'all') return { mode: 'all', chosen: chosen.toolMode, ...set, searchable: 0, userTools };
    const router = this.router(mode.toolSet);
    const served = router.served(mode.pinned);
    return {
      mode: 'router',
      chosen: chosen.toolMode,
      toolCount: served.length,
      bytes: served.reduce((sum, p) => sum + p.bytes, 0),
      pages: allPages(served, this.options.maxMessageBytes()).length,
      searchable: router.searchable,
      userTools,
    };
  }

  /** Every tools/list page in a mode. */
  pagesFor(chosen: EndpointMode): Page[] {
    const mode = this.resolve(chosen);
    return mode.toolMode === 'all'
      ? this.viewOf(mode).pages()
      : allPages(this.router(mode.toolSet).served(mode.pinned), this.options.maxMessageBytes());
  }

  /** Exactly what the model sees in tools/list, page by page. */
  preview(endpointId: string): ServedCatalog {
    const mode = this.options.mode(endpointId);
    return {
      summary: this.summaryFor(mode),
      pages: this.pagesFor(mode).map((page) => ({
        tools: page.tools.map((p) => ({ ...p.tool, bytes: p.bytes })),
        bytes: page.tools.reduce((sum, p) => sum + p.bytes, 0),
      })),
    };
  }

  private modeOf(endpointId: string): ServedAs {
    return this.resolve(this.options.mode(endpointId));
  }

  /** `auto` is every tool while the set fits the budget, search when it does not. */
  private resolve(mode: EndpointMode): ServedAs {
    if (mode.toolMode !== 'auto') return mode as ServedAs;
    let both = this.autoModes.get(mode);
    if (!both) {
      both = { all: { ...mode, toolMode: 'all' }, router: { ...mode, toolMode: 'router' } };
      this.autoModes.set(mode, both);
    }
    const budget = this.options.budget?.();
    if (!budget) return both.all;
    const { toolCount, bytes } = this.viewOf(mode).summary();
    return toolCount <= budget.budgetTools && bytes <= budget.budgetBytes ? both.all : both.router;
  }

  private viewOf(mode: EndpointMode): ToolSetView {
    return this.options.hub.forSet(mode.toolSet);
  }

  private key(endpointId: string): string {
    const mode = this.modeOf(endpointId);
    const view = this.viewOf(mode);
    if (mode.toolMode === 'all') return `all:${view.id}:${view.version}`;
    return `router:${view.id}:${this.router(mode.toolSet)
      .served(mode.pinned)
      .map((p) => p.json)
      .join('\n')}`;
  }

  private page(endpointId: string, cursor: string | undefined, idJson: string): { tools: ServedTool[]; nextCursor?: string } {
    const mode = this.modeOf(endpointId);
    if (mode.toolMode === 'all') return this.viewOf(mode).page(cursor, idJson);
    const page = pageAt(this.router(mode.toolSet).served(mode.pinned), this.options.maxMessageBytes(), idJson, cursor);
    const tools = page.tools.map((p) => p.tool);
    return page.nextCursor === undefined ? { tools } : { tools, nextCursor: page.nextCursor };
  }
}

/** find_tools and call_tool: served in search mode, answered in every mode (a session may have been served them). */
const isRouterTool = (name: string): boolean => name === FIND_TOOLS || name === CALL_TOOL;
