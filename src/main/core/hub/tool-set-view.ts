import { ErrorCode, McpError, type CallToolResult, type Progress, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TOOL_SET, type NamingPolicy, type ToolSet } from '../../../shared/settings';
import type { CallOutcome, CatalogSummary, CatalogTool } from '../../../shared/status';
import type { CallHistory } from '../logs/call-history';
import type { Logger } from '../logs/log-book';
import { ServerUnavailableError, errorText } from '../servers/child-server';
import { resultText, shapeResult, textResult } from './result-shaping';
import { assignExposedNames, toolKey } from './tool-names';
import { allPages, pageAt, prepareTool, type Page, type PreparedTool, type ServedTool } from './tool-pages';
import { servedSchema } from './served-schema';
import { problem, type Problem } from '../../../shared/problem';
import type { ArgumentCheck } from './argument-check';
import type { CallSignal } from './call-signal';

/** What the hub needs of a server: its tools and a way to call them. */
export interface ToolSource {
  readonly name: string;
  readonly isRunning: boolean;
  readonly currentTools: readonly Tool[];
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: CallSignal | undefined; onProgress?: ((progress: Progress) => void) | undefined },
  ): Promise<CallToolResult>;
}

export interface CallContext {
  /** The endpoint's name, the local client's name, or `ui`. */
  caller: string;
  signal?: CallSignal;
  /** The request id as JSON, so the shaped response fits the limit exactly. */
  idJson?: string;
  /**
   * false for local clients: they get every content item and no size limit. Shaping (one text
   * item that fits the message limit) is for xiaozhi, which reads only the first text.
   */
  shape?: boolean;
  /** The caller asked for progress (a progressToken): the server's progress of this call goes here. */
  onProgress?: (progress: Progress) => void;
}

/** A running server's tool, before any set has chosen or named it. */
export interface ToolRef {
  server: string;
  tool: Tool;
}

/** What every view shares: the servers, the history, the log and the message limit. */
export interface ViewContext {
  sources(): Iterable<ToolSource>;
  history: CallHistory;
  log: Logger;
  maxMessageBytes(): number;
  argumentCheck: ArgumentCheck;
  /** Servers whose calls are not checked against their schemas (some publish wrong ones). */
  argumentChecksOff(): ReadonlySet<string> | undefined;
}

/**
 * What a call came to: the result the caller is sent, and, when the hub made that result itself
 * (an unknown or switched-off tool, a server down, a timeout…), why, for a UI to word.
 */
export interface CallAnswer {
  result: CallToolResult;
  problem?: Problem;
}

/** The catalog one consumer sees: what an endpoint link or a local client session talks to. */
export interface CatalogView {
  readonly id: string;
  readonly version: number;
  page(cursor: string | undefined, idJson: string): { tools: ServedTool[]; nextCursor?: string };
  /** True for a tool of this set's catalog (enabled or not). */
  has(name: string): boolean;
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer>;
}

interface Entry {
  exposed: string;
  server: string;
  original: Tool;
  enabled: boolean;
  prepared: PreparedTool;
}

/**
 * Entries (sorted by exposed name) with each name once: names are assigned to be unique, so a repeat
 * is a defect; serving it would make the name route to one tool and list two.
 */
function withoutSameNames(sorted: Entry[], log: Logger): Entry[] {
  const out: Entry[] = [];
  for (const entry of sorted) {
    const previous = out[out.length - 1];
    if (previous?.exposed === entry.exposed) {
      log.warn(`two tools got the name "${entry.exposed}" (servers "${previous.server}" and "${entry.server}"); only the first is served`);
      continue;
    }
    out.push(entry);
  }
  return out;
}

export function setIncludesServer(set: ToolSet, server: string): boolean {
  return set.servers === 'all' || set.servers.includes(server);
}

/**
 * One tool set as served: which tools, under which names (assigned among the set's own tools, so a
 * name only gets a server prefix when it clashes within the set), paged by bytes, and the routing
 * of a call. A call for a tool outside the set is refused exactly like an unknown tool.
 */
export class ToolSetView implements CatalogView {
  private entries: Entry[] = [];
  private byName = new Map<string, Entry>();
  /** Enabled tools, sorted by exposed name: the catalog as served. */
  private served: PreparedTool[] = [];
  private signature = '';
  private catalogVersion = 0;
  private summaryCache: CatalogSummary = { toolCount: 0, bytes: 0, pages: 1 };
  private setName: string;
  private unlistedWarned = new Set<string>();

  constructor(
    readonly id: string,
    name: string,
    private readonly context: ViewContext,
  ) {
    this.setName = name;
  }

  get name(): string {
    return this.setName;
  }

  /** Bumped whenever what this set serves changes. */
  get version(): number {
    return this.catalogVersion;
  }

  /** Recomputes the set from the running servers' tools; true when what is served changed. */
  rebuild(refs: ToolRef[], set: ToolSet, naming: NamingPolicy): boolean {
    this.setName = set.name;
    const mine = refs.filter((ref) => setIncludesServer(set, ref.server));
    const names = assignExposedNames(
      mine.map((r) => ({ server: r.server, tool: r.tool.name })),
      naming === 'always-prefix',
    );
    const entries: Entry[] = mine.map(({ server, tool }) => {
      const toolSettings = set.tools[server]?.[tool.name];
      const exposed = names.get(toolKey(server, tool.name)) as string;
      const served: ServedTool = {
        name: exposed,
        description: toolSettings?.description ?? tool.description ?? '',
        inputSchema: servedSchema(tool.inputSchema),
      };
      return { exposed, server, original: tool, enabled: toolSettings?.enabled !== false, prepared: prepareTool(served) };
    });
    entries.sort((a, b) => (a.exposed < b.exposed ? -1 : a.exposed > b.exposed ? 1 : 0));
    this.entries = withoutSameNames(entries, this.context.log);
    this.byName = new Map(this.entries.map((e) => [e.exposed, e]));
    this.served = this.entries.filter((e) => e.enabled).map((e) => e.prepared);
    // Status events read this often; paging the whole catalog each time would be wasted work.
    const pages = this.pages();
    this.summaryCache = {
      toolCount: this.served.length,
      bytes: this.served.reduce((sum, p) => sum + p.bytes, 0),
      pages: pages.length,
    };
    this.warnUnlisted(pages.flatMap((page) => page.unlisted ?? []));
    const signature = this.served.map((p) => p.json).join('\n');
    if (signature === this.signature) return false;
    this.signature = signature;
    this.catalogVersion++;
    return true;
  }

  /** Said once per tool while it stays too large to list (a new limit or a new schema may change that). */
  private warnUnlisted(names: string[]): void {
    const now = new Set(names);
    for (const name of now) {
      if (this.unlistedWarned.has(name)) continue;
      const entry = this.byName.get(name);
      this.context.log.warn(
        `tool "${name}"${entry ? ` (server "${entry.server}")` : ''} is too large for a tools/list message of ${this.context.maxMessageBytes()} bytes even without its descriptions, so xiaozhi is not sent it${this.id === DEFAULT_TOOL_SET ? '' : ` (tool set "${this.setName}")`}`,
      );
    }
    this.unlistedWarned = now;
  }

  /** Every tool of the set's running servers, enabled or not (for the UI). */
  catalog(): CatalogTool[] {
    return this.entries.map((e) => ({
      name: e.exposed,
      server: e.server,
      originalName: e.original.name,
      description: e.prepared.tool.description,
      inputSchema: e.original.inputSchema as Record<string, unknown>,
      enabled: e.enabled,
      bytes: e.prepared.bytes,
      // The server's own description, when the set replaces it (the window shows both).
      ...(e.prepared.tool.description !== (e.original.description ?? '') ? { originalDescription: e.original.description ?? '' } : {}),
    }));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  summary(): CatalogSummary {
    return this.summaryCache;
  }

  /** One `tools/list` page as served to an endpoint. */
  page(cursor: string | undefined, idJson: string): { tools: ServedTool[]; nextCursor?: string } {
    const page = pageAt(this.served, this.context.maxMessageBytes(), idJson, cursor);
    return page.nextCursor === undefined
      ? { tools: page.tools.map((p) => p.tool) }
      : { tools: page.tools.map((p) => p.tool), nextCursor: page.nextCursor };
  }

  pages(idJson = '1'): Page[] {
    return allPages(this.served, this.context.maxMessageBytes(), idJson);
  }

  /**
   * The set's tools for a local client: no byte limit, so the server's own schema (with its
   * definitions and constraints), title, annotations and output schema go through as they are.
   */
  fullTools(): Tool[] {
    return this.entries
      .filter((e) => e.enabled)
      .map((e) => {
        const { name: _name, description: _description, ...rest } = e.original;
        return { ...rest, name: e.exposed, description: e.prepared.tool.description };
      });
  }

  /**
   * Routes a call to the owning server. Whatever the model should know about (unknown or disabled
   * tool, server down, timeout, the tool's own failure) comes back as an `isError` result it can read.
   */
  async call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    const started = performance.now();
    const entry = this.byName.get(name);
    const shape = context.shape !== false;
    const finish = (result: CallToolResult, outcome: CallOutcome, cause?: Problem): CallAnswer => {
      const out = shape ? shapeResult(result, this.context.maxMessageBytes(), context.idJson ?? '0') : result;
      this.context.history.add({
        caller: context.caller,
        tool: name,
        originalTool: entry?.original.name ?? name,
        server: entry?.server ?? '',
        arguments: args,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        outcome,
        result: resultText(out),
      });
      return cause ? { result: out, problem: cause } : { result: out };
    };
    if (!entry)
      return finish(
        textResult(`Unknown tool "${name}". It may have been removed; ask for the tool list again.`, true),
        'error',
        problem('call.unknownTool', { tool: name }),
      );
    if (!entry.enabled)
      return finish(
        textResult(`The tool "${name}" is turned off in Xiaozhi Tray.`, true),
        'error',
        problem('call.toolOff', { tool: name }),
      );
    let source: ToolSource | undefined;
    for (const s of this.context.sources()) {
      if (s.name === entry.server) {
        source = s;
        break;
      }
    }
    if (!source)
      return finish(
        textResult(`The server "${entry.server}" of tool "${name}" is not configured.`, true),
        'error',
        problem('call.notConfigured', { tool: name, server: entry.server }),
      );
    if (!this.context.argumentChecksOff()?.has(entry.server)) {
      const invalid = this.context.argumentCheck.check(
        { name, server: entry.server, inputSchema: entry.original.inputSchema as Record<string, unknown> },
        args,
      );
      if (invalid) return finish(textResult(invalid, true), 'error', problem('call.badArguments', { tool: name, detail: invalid }));
    }
    try {
      const result = await source.callTool(entry.original.name, args, { signal: context.signal, onProgress: context.onProgress });
      const outputSchema = entry.original.outputSchema as Record<string, unknown> | undefined;
      if (outputSchema && !result.isError) {
        // As the SDK's client did before the relay: a result its own schema refuses is the tool's failure.
        const wrong = this.context.argumentCheck.checkOutput({ name, server: entry.server, outputSchema }, result.structuredContent);
        if (wrong)
          return finish(
            textResult(`The tool "${name}" failed: ${wrong}.`, true),
            'error',
            problem('call.failed', { tool: name, detail: wrong }),
          );
      }
      return finish(result, result.isError ? 'error' : 'ok');
    } catch (error) {
      if (error instanceof ServerUnavailableError) {
        return finish(
          textResult(`The tool "${name}" is unavailable: ${error.message}.`, true),
          'error',
          problem('call.unavailable', { tool: name, server: entry.server, state: error.state }),
        );
      }
      if (context.signal?.aborted)
        return finish(textResult(`The call to "${name}" was cancelled.`, true), 'cancelled', problem('call.cancelled', { tool: name }));
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        this.context.log.warn(
          `call ${name} (server "${entry.server}") did not finish within ${timeoutSeconds(error) ?? '?'} s; the server was told to cancel it`,
        );
        return finish(
          textResult(`The tool "${name}" did not finish in time and was cancelled. ${timeoutDetail(error)}`.trim(), true),
          'timeout',
          problem('call.timeout', { tool: name, seconds: timeoutSeconds(error) ?? '?' }),
        );
      }
      this.context.log.warn(`call ${name} failed: ${errorText(error)}`);
      return finish(
        textResult(`The tool "${name}" failed: ${errorText(error)}`, true),
        'error',
        problem('call.failed', { tool: name, detail: errorText(error) }),
      );
    }
  }
}

/** The limit in seconds to a tenth (0.3, 1.5, 60): whole seconds would say 0 s for a limit under half a second. */
function timeoutSeconds(error: McpError): number | undefined {
  const timeout = (error.data as { timeout?: number } | undefined)?.timeout;
  return typeof timeout === 'number' ? Math.round(timeout / 100) / 10 : undefined;
}

function timeoutDetail(error: McpError): string {
  const seconds = timeoutSeconds(error);
  return seconds !== undefined ? `(limit: ${seconds} s)` : '';
}
