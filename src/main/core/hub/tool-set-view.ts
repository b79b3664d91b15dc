import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/sdk/types.js';

import type { Language } from '../../../shared/i18n/translate';
import { own } from '../../../shared/own';
import { type Problem, problem } from '../../../shared/problem';
import type { ToolPolicy } from '../../../shared/settings';
import { DEFAULT_TOOL_SET, type NamingPolicy, type ToolSet } from '../../../shared/settings';
import type { CatalogSummary, CatalogTool, ConfirmedIn } from '../../../shared/status';
import type { CallSignal } from '../io/call-signal';
import type { CallHistory } from '../logs/call-history';
import type { Logger } from '../logs/log-book';
import { errorText } from '../problems/error-text';
import { servedSchema } from '../servers/served-schema';
import type { ArgumentCheck } from './argument-check';
import { BUILTIN_SERVER } from './builtin/builtin-tools';
import { CONFIRM_TOOL } from './builtin/confirm-tool';
import type { PinPlace } from './builtin/confirmation-pin';
import type { Confirmations } from './builtin/confirmations';
import type { VoiceCalls } from './builtin/voice-calls';
import { badArguments, entryFor, sourceOf, unavailable } from './call-admission';
import { holdForConfirmation } from './call-hold';
import { runCall } from './call-run';
import type { SetEntry } from './set-entry';
import { spokenError } from './spoken-error';
import { ToolCall } from './tool-call';
import { assignExposedNames, toolKey } from './tool-names';
import { allPages, type Page, pageAt, type PreparedTool, prepareTool, type ServedTool } from './tool-pages';

/** What the hub needs of a server: its tools and a way to call them. */
export interface ToolSource {
  readonly name: string;
  readonly isRunning: boolean;
  readonly currentTools: readonly Tool[];
  /** Configured to run (a server switched off counts for nothing). */
  readonly enabled: boolean;
  /** Its tools as last listed, while it is down too: names are decided from these, not from who is up. */
  readonly knownTools: readonly Tool[];
  callTool(name: string, args: Record<string, unknown>, options: SourceCallOptions): Promise<CallToolResult>;
  /** Its failures are worded for the model already (a web service's, the app's own tools): no cause is said before them. */
  readonly wordsFailures?: boolean;
}

/** What a source is told of a call: a server needs its signal and progress; a built-in tool also who asked, on which connection. */
export interface SourceCallOptions {
  signal?: CallSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  caller?: string | undefined;
  session?: string | undefined;
  /** Whose background tasks the caller sees (an endpoint's id). */
  owner?: string | undefined;
  /** The call may go on in the background (its caller answered "still working"): it gets the longer bound. */
  background?: boolean | undefined;
  /** The task id the call goes on as, once answered early (a built-in confirm passes it to the call it runs). */
  task?: { id?: string } | undefined;
  /** Names the call's task after the tool it really runs (confirm_action runs a held call). */
  nameTask?: ((tool: string) => void) | undefined;
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
  /** A call its caller may be answered before it ends: the task id it went on as, read when it ends (for the history), and whether its connection closed first. */
  background?: { id?: string; disconnected?: boolean };
  /**
   * Answers the caller now with the text `say` makes of the task id, the call going on in the
   * background (an endpoint's call, for a server's question during it); the task id, or undefined.
   */
  answerNow?: (say: (taskId: string) => string) => string | undefined;
  /** Names the call's task after the tool it really runs (confirm_action runs a held call, call_tool the tool it routes to). */
  nameTask?: (tool: string) => void;
  /** The connection the call came on (an endpoint session): built-in tools bind what they hold to it. */
  session?: string;
  /** Whose background tasks these are: the endpoint's id (names need not be unique); absent, the caller. */
  owner?: string;
  /** Where a held call was confirmed (it runs without asking again). */
  confirmedBy?: ConfirmedIn;
  /** The history row of the held call this run answers: its outcome updates that row. */
  heldRow?: number;
  /**
   * The tool the caller was served under this name (a session keeps its names): the call goes to
   * it, wherever the name points now, or is refused as unknown when that tool is gone.
   */
  boundTo?: ToolIdentity;
}

/** A tool by its server and its own name: what an exposed name stands for. */
export interface ToolIdentity {
  server: string;
  tool: string;
}

/** A server's tool, before any set has chosen or named it. */
export interface ToolRef {
  server: string;
  tool: Tool;
  /** Its server is up (a tool of a server that is down keeps its name, and a call is told why it cannot run). */
  running?: boolean;
}

/** What every view shares: the servers, the history, the log and the message limit. */
export interface ViewContext {
  sources(): Iterable<ToolSource>;
  /** The source called `name`, found without listing them all (a call's lookup). */
  source(name: string): ToolSource | undefined;
  history: CallHistory;
  log: Logger;
  maxMessageBytes(): number;
  argumentCheck: ArgumentCheck;
  /** Servers whose calls are not checked against their schemas (some publish wrong ones). */
  argumentChecksOff(): ReadonlySet<string> | undefined;
  /** The user's language: what the bridge itself answers a call with is worded in it. */
  language(): Language;
  /** Asking before risky actions called by voice (absent: every call runs). */
  voice?: VoiceGuard | undefined;
  /** Hides the secrets the app knows of (and keys in URLs) in a failed call's words (absent: shown as they came). */
  redact?: ((text: string) => string) | undefined;
}

/** What the view needs to hold a voice call for confirmation, or refuse it. */
export interface VoiceGuard {
  confirmations: Confirmations;
  policyOf(server: string, tool: Tool): ToolPolicy;
  /**
   * A call is about to ask for the person's PIN: made now if the user set none. Where they find it
   * while nobody has shown it to them (the model tells them); undefined once they know it.
   */
  pinFor(): PinPlace | undefined;
  /** The PIN as it is now (none made yet: undefined), hidden from what a voice session is answered. */
  pin(): string | undefined;
  /** The calls by voice in flight, for a server's question during one (elicitation). */
  calls?: VoiceCalls;
  /** A server's title in `language` when it was added from the catalogue (our words for it); else undefined. */
  serverTitle?(server: string, language: Language): string | undefined;
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
  /** The tool a name stands for now (a server that is down included). */
  identityOf(name: string): ToolIdentity | undefined;
  /** The name a tool has now, if any. */
  nameOf(tool: ToolIdentity): string | undefined;
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer>;
}

/**
 * Entries (sorted by exposed name) with each name once: names are assigned to be unique, so a repeat
 * is a defect; serving it would make the name route to one tool and list two.
 */
function withoutSameNames(sorted: SetEntry[], log: Logger): SetEntry[] {
  const out: SetEntry[] = [];
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

/** The bridge's own tools are in every set (each can be switched off in it, like any tool). */
export function setIncludesServer(set: ToolSet, server: string): boolean {
  return set.servers === 'all' || server === BUILTIN_SERVER || set.servers.includes(server);
}

/**
 * One tool set as served: which tools, under which names (assigned among the set's own tools, so a
 * name only gets a server prefix when it clashes within the set), paged by bytes, and the routing
 * of a call. A call for a tool outside the set is refused exactly like an unknown tool.
 */
export class ToolSetView implements CatalogView {
  /** Tools of running servers: the catalog. */
  private entries: SetEntry[] = [];
  /** Every named tool, those of servers that are down included. */
  private byName = new Map<string, SetEntry>();
  private byTool = new Map<string, string>();
  /** Enabled tools, sorted by exposed name: the catalog as served. */
  private served: PreparedTool[] = [];
  private signature = '';
  /** The confirm tool's name when this set serves it (listed and on): told to every call by voice, so known per rebuild. */
  private confirmToolServed: string | undefined;
  private catalogVersion = 0;
  private summaryCache: CatalogSummary = { toolCount: 0, bytes: 0, pages: 1 };
  private setName: string;
  private unlistedWarned = new Set<string>();
  private unservableWarned = new Set<string>();

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

  /**
   * Recomputes the set from the servers' tools (`refs`: those of every enabled server, running or
   * not, so a server going down renames nothing); true when what is served changed.
   */
  rebuild(refs: ToolRef[], set: ToolSet, naming: NamingPolicy, programs: ReadonlyMap<string, string> = new Map()): boolean {
    this.setName = set.name;
    const mine = refs.filter((ref) => setIncludesServer(set, ref.server));
    const names = assignExposedNames(
      mine.map((r) => ({ server: r.server, tool: r.tool.name })),
      naming === 'always-prefix',
      programs,
    );
    const all: SetEntry[] = [];
    const unservable = new Set<string>();
    for (const { server, tool, running } of mine) {
      const toolSettings = own(own(set.tools, server), tool.name);
      const exposed = names.get(toolKey(server, tool.name)) as string;
      // One tool that cannot be served (its schema past what a string holds…) is left out, not the catalog.
      let prepared: PreparedTool;
      try {
        const served: ServedTool = {
          name: exposed,
          description: toolSettings?.description ?? tool.description ?? '',
          inputSchema: servedSchema(tool.inputSchema),
        };
        prepared = prepareTool(served);
      } catch (error) {
        this.warnUnservable(unservable, server, tool.name, error);
        continue;
      }
      all.push({ exposed, server, original: tool, enabled: toolSettings?.enabled !== false, running: running !== false, prepared });
    }
    this.unservableWarned = unservable;
    all.sort((a, b) => (a.exposed < b.exposed ? -1 : a.exposed > b.exposed ? 1 : 0));
    const named = withoutSameNames(all, this.context.log);
    this.entries = named.filter((e) => e.running);
    this.byName = new Map(named.map((e) => [e.exposed, e]));
    this.byTool = new Map(named.map((e) => [toolKey(e.server, e.original.name), e.exposed]));
    this.served = this.entries.filter((e) => e.enabled).map((e) => e.prepared);
    const confirmTool = this.nameOf({ server: BUILTIN_SERVER, tool: CONFIRM_TOOL });
    this.confirmToolServed = confirmTool !== undefined && this.served.some((p) => p.tool.name === confirmTool) ? confirmTool : undefined;
    // Status events read this often; paging the whole catalog each time would be wasted work.
    const pages = this.pages();
    this.summaryCache = {
      toolCount: this.served.length,
      bytes: this.served.reduce((sum, p) => sum + p.bytes, 0),
      pages: pages.length,
      appTools: this.entries.filter((e) => e.enabled && e.server === BUILTIN_SERVER).length,
    };
    this.warnUnlisted(pages.flatMap((page) => page.unlisted ?? []));
    const signature = this.served.map((p) => p.json).join('\n');
    if (signature === this.signature) return false;
    this.signature = signature;
    this.catalogVersion++;
    return true;
  }

  /** Said once per tool while it stays unservable. */
  private warnUnservable(now: Set<string>, server: string, tool: string, error: unknown): void {
    const key = `${server}\u0000${tool}`;
    now.add(key);
    if (this.unservableWarned.has(key)) return;
    this.context.log.warn(`tool "${tool}" (server "${server}") cannot be served, so it is left out: ${errorText(error)}`);
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
      ...(e.original.annotations?.destructiveHint === true ? { destructive: true } : {}),
    }));
  }

  /** A tool of a running server has this name (a call of any other name waits for servers still starting). */
  has(name: string): boolean {
    return this.byName.get(name)?.running === true;
  }

  identityOf(name: string): ToolIdentity | undefined {
    const entry = this.byName.get(name);
    return entry ? { server: entry.server, tool: entry.original.name } : undefined;
  }

  /**
   * The checks every call passes before it reaches a server (a tool of this set, switched on, with
   * arguments its schema takes), for a call that does not go through `call` (a local client's MCP
   * task): the tool it names, or why it is refused, in the voice language.
   */
  admit(name: string, args: Record<string, unknown>): { identity: ToolIdentity } | { refused: Problem; said: string } {
    const entry = this.byName.get(name);
    const refused = unavailable(entry, name) ?? (entry ? badArguments(this.context, entry, name, args) : undefined);
    if (refused || !entry) {
      const { voice } = this.context;
      return {
        refused: refused as Problem,
        said: spokenError(refused as Problem, this.context.language(), voice?.serverTitle?.bind(voice)),
      };
    }
    return { identity: { server: entry.server, tool: entry.original.name } };
  }

  nameOf(tool: ToolIdentity): string | undefined {
    return this.byTool.get(toolKey(tool.server, tool.tool));
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
   * Routes a call to the owning server, in steps: admitted (a tool of this set, switched on, of a
   * configured server, with arguments its schema takes), held for confirmation when a call by voice
   * must be, run, and its answer shaped for its caller and recorded (`tool-call.ts`).
   */
  call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    // Not async (its promise would wrap the run's, two more turns per call), so a throw is made a rejection here.
    try {
      return this.route(name, args, context);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private route(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    const call = new ToolCall(this.context, name, args, context);
    const entry = entryFor(this.byName, name, context.boundTo);
    call.entry = entry;
    const off = unavailable(entry, name);
    if (off || !entry) return Promise.resolve(call.refuse(off as Problem));
    const source = sourceOf(this.context, entry.server);
    if (!source) return Promise.resolve(call.refuse(problem('call.notConfigured', { tool: name, server: entry.server })));
    const wrong = badArguments(this.context, entry, name, args);
    if (wrong) return Promise.resolve(call.refuse(wrong));
    // A call by voice (an endpoint session) of a risky tool is held until the user confirms it, or refused.
    const voice = this.context.voice;
    // A confirmed call is checked again: the tool may have been set to "never" while it was held.
    if (voice && context.session !== undefined && entry.server !== BUILTIN_SERVER) {
      const policy = voice.policyOf(entry.server, entry.original);
      if (policy === 'never') return Promise.resolve(call.refuse(problem('call.refused', { tool: name })));
      if ((policy === 'ask' || policy === 'window') && context.confirmedBy === undefined)
        return Promise.resolve(holdForConfirmation(this, this.context, voice, call, entry, policy === 'ask' ? 'pin' : 'window'));
    }
    return runCall(this.context, call, entry, source, this.confirmToolServed);
  }
}
