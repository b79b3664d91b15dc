import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolMode } from '../../../shared/settings';
import type { ServedCatalog, ServedSummary } from '../../../shared/served';
import type { CallContext, ToolHub } from '../hub/tool-hub';
import { allPages, pageAt, type Page, type ServedTool } from '../hub/tool-pages';
import type { CallHistory } from '../logs/call-history';
import { ToolRouter } from './tool-router';

/**
 * The one seam between an endpoint link and the tools it serves: what `tools/list` pages and
 * `tools/call` reach for this endpoint. In `all` mode that is the hub itself; in `router` mode,
 * find_tools and call_tool (plus pinned tools) over the same catalog. When tool sets arrive, an
 * endpoint's set takes the place of the hub here and nothing else changes.
 */
export interface EndpointTools {
  /** Bumped whenever what this endpoint is served changes (mode switch included). */
  readonly version: number;
  page(cursor: string | undefined, idJson: string): { tools: ServedTool[]; nextCursor?: string };
  /** True for a concrete tool of the catalog (router mode's own find_tools and call_tool are not). */
  has(name: string): boolean;
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
}

export interface EndpointMode {
  toolMode: ToolMode;
  pinned: readonly string[];
}

export interface EndpointCatalogsOptions {
  hub: ToolHub;
  history: CallHistory;
  /** The current mode of an endpoint (read at every request, so a switch needs no reconnect). */
  mode: (endpointId: string) => EndpointMode;
  maxMessageBytes: () => number;
}

export class EndpointCatalogs {
  readonly router: ToolRouter;

  constructor(private readonly options: EndpointCatalogsOptions) {
    const { hub } = options;
    this.router = new ToolRouter({
      source: { get version() { return hub.version; }, catalog: () => hub.catalog(), call: (name, args, context) => hub.call(name, args, context) },
      history: options.history,
      maxMessageBytes: options.maxMessageBytes,
    });
  }

  /** What the link of this endpoint serves, following its mode as it changes. */
  forEndpoint(endpointId: string): EndpointTools {
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
    return {
      get version() {
        return currentVersion();
      },
      page: (cursor, idJson) => this.page(endpointId, cursor, idJson),
      has: (name) => this.options.hub.has(name),
      call: (name, args, context) => (this.modeOf(endpointId).toolMode === 'router' ? this.router.call(name, args, context) : this.options.hub.call(name, args, context)),
    };
  }

  /** How much this endpoint is served: tools, bytes, pages (for the window's budget). */
  summary(endpointId: string): ServedSummary {
    return this.summaryFor(this.modeOf(endpointId));
  }

  /** The same for a mode (the CLI's `tools --tool-mode`). */
  summaryFor(mode: EndpointMode): ServedSummary {
    if (mode.toolMode === 'all') return { mode: 'all', ...this.options.hub.summary(), searchable: 0 };
    const served = this.router.served(mode.pinned);
    return {
      mode: 'router',
      toolCount: served.length,
      bytes: served.reduce((sum, p) => sum + p.bytes, 0),
      pages: allPages(served, this.options.maxMessageBytes()).length,
      searchable: this.router.searchable,
    };
  }

  /** Every tools/list page in a mode. */
  pagesFor(mode: EndpointMode): Page[] {
    return mode.toolMode === 'all' ? this.options.hub.pages() : allPages(this.router.served(mode.pinned), this.options.maxMessageBytes());
  }

  /** Exactly what the model sees in tools/list, page by page. */
  preview(endpointId: string): ServedCatalog {
    const mode = this.modeOf(endpointId);
    return {
      summary: this.summaryFor(mode),
      pages: this.pagesFor(mode).map((page) => ({ tools: page.tools.map((p) => ({ ...p.tool, bytes: p.bytes })), bytes: page.tools.reduce((sum, p) => sum + p.bytes, 0) })),
    };
  }

  private modeOf(endpointId: string): EndpointMode {
    return this.options.mode(endpointId);
  }

  private key(endpointId: string): string {
    const mode = this.modeOf(endpointId);
    if (mode.toolMode === 'all') return `all:${this.options.hub.version}`;
    return `router:${this.router.served(mode.pinned).map((p) => p.json).join('\n')}`;
  }

  private page(endpointId: string, cursor: string | undefined, idJson: string): { tools: ServedTool[]; nextCursor?: string } {
    const mode = this.modeOf(endpointId);
    if (mode.toolMode === 'all') return this.options.hub.page(cursor, idJson);
    const page = pageAt(this.router.served(mode.pinned), this.options.maxMessageBytes(), idJson, cursor);
    const tools = page.tools.map((p) => p.tool);
    return page.nextCursor === undefined ? { tools } : { tools, nextCursor: page.nextCursor };
  }
}
