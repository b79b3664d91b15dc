import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { NamingPolicy, ToolSettings } from '../../../shared/settings';
import type { CallOutcome, CatalogSummary, CatalogTool } from '../../../shared/status';
import type { CallHistory } from '../logs/call-history';
import type { Logger } from '../logs/log-book';
import { ServerUnavailableError, errorText } from '../servers/child-server';
import { ArgumentCheck } from './argument-check';
import { resultText, shapeResult, textResult, responseBytes } from './result-shaping';
import { assignExposedNames, toolKey } from './tool-names';
import { problem, type Problem } from '../../../shared/problem';
import { allPages, pageAt, prepareTool, type Page, type PreparedTool, type ServedTool } from './tool-pages';

/** What the hub needs of a server: its tools and a way to call them. */
export interface ToolSource {
  readonly name: string;
  readonly isRunning: boolean;
  readonly currentTools: readonly Tool[];
  callTool(name: string, args: Record<string, unknown>, options: { signal?: AbortSignal }): Promise<CallToolResult>;
}

export interface HubSettings {
  naming: NamingPolicy;
  tools: Record<string, Record<string, ToolSettings>>;
  maxMessageBytes: number;
  /** Servers whose calls are sent without checking their arguments against the tool's schema. */
  argumentChecksOff?: ReadonlySet<string>;
}

interface Entry {
  exposed: string;
  server: string;
  original: string;
  enabled: boolean;
  prepared: PreparedTool;
  inputSchema: Record<string, unknown>;
  /** The server's description, when an override replaces it. */
  originalDescription?: string;
}

export interface CallContext {
  caller: string;
  signal?: AbortSignal;
  /** The request id as JSON, so the shaped response fits the limit exactly. */
  idJson?: string;
}

/** Why a call result is an error the hub made itself (not the tool's own answer), for the UI to word. */
const causes = new WeakMap<CallToolResult, Problem>();
export const callProblem = (result: CallToolResult): Problem | undefined => causes.get(result);

/** Owns tool names and routing: which tools are served, under which names, to which server a call goes. */
export class ToolHub {
  private entries: Entry[] = [];
  private byName = new Map<string, Entry>();
  /** Enabled tools, sorted by exposed name: the catalog as served. */
  private served: PreparedTool[] = [];
  private signature = '';
  private catalogVersion = 0;
  private summaryCache: CatalogSummary = { toolCount: 0, bytes: 0, pages: 1 };
  private readonly listeners = new Set<() => void>();
  private readonly argumentCheck: ArgumentCheck;

  constructor(
    private readonly sources: () => Iterable<ToolSource>,
    private settings: HubSettings,
    private readonly history: CallHistory,
    private readonly log: Logger,
  ) {
    this.argumentCheck = new ArgumentCheck(log);
  }

  updateSettings(settings: HubSettings): void {
    this.settings = settings;
    this.rebuild();
  }

  /** Bumped whenever what is served changes. */
  get version(): number {
    return this.catalogVersion;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Recomputes the catalog from the running servers; notifies when what is served changed. */
  rebuild(): void {
    const refs: { server: string; tool: Tool }[] = [];
    for (const source of this.sources()) {
      if (!source.isRunning) continue;
      for (const tool of source.currentTools) refs.push({ server: source.name, tool });
    }
    const names = assignExposedNames(
      refs.map((r) => ({ server: r.server, tool: r.tool.name })),
      this.settings.naming === 'always-prefix',
    );
    const entries: Entry[] = refs.map(({ server, tool }) => {
      const toolSettings = this.settings.tools[server]?.[tool.name];
      const exposed = names.get(toolKey(server, tool.name)) as string;
      const served: ServedTool = {
        name: exposed,
        description: toolSettings?.description ?? tool.description ?? '',
        inputSchema: servedSchema(tool.inputSchema),
      };
      return {
        exposed,
        server,
        original: tool.name,
        enabled: toolSettings?.enabled !== false,
        prepared: prepareTool(served),
        inputSchema: tool.inputSchema as Record<string, unknown>,
        ...(toolSettings?.description !== undefined ? { originalDescription: tool.description ?? '' } : {}),
      };
    });
    entries.sort((a, b) => (a.exposed < b.exposed ? -1 : a.exposed > b.exposed ? 1 : 0));
    this.entries = entries;
    this.byName = new Map(entries.map((e) => [e.exposed, e]));
    this.served = entries.filter((e) => e.enabled).map((e) => e.prepared);
    // Status events read this often; paging the whole catalog each time would be wasted work.
    this.summaryCache = {
      toolCount: this.served.length,
      bytes: this.served.reduce((sum, p) => sum + p.bytes, 0),
      pages: this.pages().length,
    };
    const signature = this.served.map((p) => p.json).join('\n');
    if (signature !== this.signature) {
      this.signature = signature;
      this.catalogVersion++;
      for (const listener of this.listeners) listener();
    }
  }

  /** True when a tool of this exposed name is in the catalog (enabled or not). */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Every tool of every running server, enabled or not (for the UI). */
  catalog(): CatalogTool[] {
    return this.entries.map((e) => ({
      name: e.exposed,
      server: e.server,
      originalName: e.original,
      description: e.prepared.tool.description,
      inputSchema: e.inputSchema,
      enabled: e.enabled,
      bytes: e.prepared.bytes,
      ...(e.originalDescription !== undefined ? { originalDescription: e.originalDescription } : {}),
    }));
  }

  summary(): CatalogSummary {
    return this.summaryCache;
  }

  /** One `tools/list` page as served to an endpoint. */
  page(cursor: string | undefined, idJson: string): { tools: ServedTool[]; nextCursor?: string } {
    const page = pageAt(this.served, this.settings.maxMessageBytes, idJson, cursor);
    return page.nextCursor === undefined
      ? { tools: page.tools.map((p) => p.tool) }
      : { tools: page.tools.map((p) => p.tool), nextCursor: page.nextCursor };
  }

  pages(idJson = '1'): Page[] {
    return allPages(this.served, this.settings.maxMessageBytes, idJson);
  }

  /**
   * Routes a call to the owning server. Whatever the model should know about (unknown or disabled
   * tool, server down, timeout, the tool's own failure) comes back as an `isError` result it can read.
   */
  async call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult> {
    const started = performance.now();
    const entry = this.byName.get(name);
    const maxBytes = this.settings.maxMessageBytes;
    const finish = (result: CallToolResult, outcome: CallOutcome, cause?: Problem): CallToolResult => {
      const shaped = shapeResult(result, maxBytes, context.idJson ?? '0');
      this.history.add({
        caller: context.caller,
        tool: name,
        originalTool: entry?.original ?? name,
        server: entry?.server ?? '',
        arguments: args,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        outcome,
        result: resultText(shaped),
      });
      if (cause) causes.set(shaped, cause);
      return shaped;
    };
    if (!entry) return finish(textResult(`Unknown tool "${name}". It may have been removed; ask for the tool list again.`, true), 'error', problem('call.unknownTool', { tool: name }));
    if (!entry.enabled) return finish(textResult(`The tool "${name}" is turned off in Xiaozhi Tray.`, true), 'error', problem('call.toolOff', { tool: name }));
    const source = [...this.sources()].find((s) => s.name === entry.server);
    if (!source) return finish(textResult(`The server "${entry.server}" of tool "${name}" is not configured.`, true), 'error', problem('call.notConfigured', { tool: name, server: entry.server }));
    if (!this.settings.argumentChecksOff?.has(entry.server)) {
      const invalid = this.argumentCheck.check({ name, server: entry.server, inputSchema: entry.inputSchema }, args);
      if (invalid) return finish(textResult(invalid, true), 'error', problem('call.badArguments', { tool: name, detail: invalid }));
    }
    try {
      const result = await source.callTool(entry.original, args, context.signal ? { signal: context.signal } : {});
      return finish(result, result.isError ? 'error' : 'ok');
    } catch (error) {
      if (error instanceof ServerUnavailableError) {
        return finish(textResult(`The tool "${name}" is unavailable: ${error.message}.`, true), 'error', problem('call.unavailable', { tool: name, server: entry.server, state: error.state }));
      }
      if (context.signal?.aborted) return finish(textResult(`The call to "${name}" was cancelled.`, true), 'cancelled', problem('call.cancelled', { tool: name }));
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        return finish(textResult(`The tool "${name}" did not finish in time and was cancelled. ${timeoutDetail(error)}`.trim(), true), 'timeout', problem('call.timeout', { tool: name, seconds: timeoutSeconds(error) ?? '?' }));
      }
      this.log.warn(`call ${name} failed: ${errorText(error)}`);
      return finish(textResult(`The tool "${name}" failed: ${errorText(error)}`, true), 'error', problem('call.failed', { tool: name, detail: errorText(error) }));
    }
  }

  /** Size of a tools/call response for the UI's "as xiaozhi would receive it". */
  responseBytes(result: CallToolResult, idJson = '0'): number {
    return responseBytes(result, idJson);
  }
}

function timeoutSeconds(error: McpError): number | undefined {
  const timeout = (error.data as { timeout?: number } | undefined)?.timeout;
  return typeof timeout === 'number' ? Math.round(timeout / 1000) : undefined;
}

function timeoutDetail(error: McpError): string {
  const seconds = timeoutSeconds(error);
  return seconds !== undefined ? `(limit: ${seconds} s)` : '';
}

/** xiaozhi keeps only type, properties and required of a schema; sending more costs bytes for nothing. */
export function servedSchema(schema: Tool['inputSchema']): ServedTool['inputSchema'] {
  const out: ServedTool['inputSchema'] = { type: 'object' };
  if (schema.properties) out.properties = schema.properties as Record<string, unknown>;
  if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required;
  return out;
}
