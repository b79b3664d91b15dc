import { ErrorCode, McpError, type CallToolResult, type Progress, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TOOL_SET, type NamingPolicy, type ToolSet } from '../../../shared/settings';
import type { CallOutcome, CatalogSummary, CatalogTool } from '../../../shared/status';
import type { CallHistory } from '../logs/call-history';
import type { Logger } from '../logs/log-book';
import { ServerUnavailableError } from '../problems/server-unavailable';
import { errorText } from '../problems/error-text';
import { ProblemError } from '../problems/server-problems';
import { spokenServiceError } from './spoken-error';
import { resultText, shapeResult, textResult } from './result-shaping';
import { spokenError } from './spoken-error';
import { sentences, translate, type Language } from '../../../shared/i18n/translate';
import { assignExposedNames, toolKey } from './tool-names';
import { allPages, pageAt, prepareTool, type Page, type PreparedTool, type ServedTool } from './tool-pages';
import { servedSchema } from '../servers/served-schema';
import { problem, type Problem } from '../../../shared/problem';
import type { ArgumentCheck } from './argument-check';
import type { CallSignal } from '../io/call-signal';
import { BUILTIN_SERVER } from './builtin/builtin-tools';
import { CONFIRM_TOOL } from './builtin/confirm-tool';
import type { Confirmations, HeldVia } from './builtin/confirmations';
import { withoutPin, type PinPlace } from './builtin/confirmation-pin';
import type { VoiceCall, VoiceCallNote, VoiceCalls } from './builtin/voice-calls';
import type { ToolPolicy } from '../../../shared/settings';
import { own } from '../../../shared/own';

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
  /** Who confirmed a held call (it runs without asking again). */
  confirmedBy?: string;
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

interface Entry {
  exposed: string;
  server: string;
  original: Tool;
  enabled: boolean;
  /** Its server is up: only then is it listed and in the catalog; otherwise a call is told why it cannot run. */
  running: boolean;
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
  private entries: Entry[] = [];
  /** Every named tool, those of servers that are down included. */
  private byName = new Map<string, Entry>();
  private byTool = new Map<string, string>();
  /** Enabled tools, sorted by exposed name: the catalog as served. */
  private served: PreparedTool[] = [];
  private signature = '';
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
  rebuild(refs: ToolRef[], set: ToolSet, naming: NamingPolicy): boolean {
    this.setName = set.name;
    const mine = refs.filter((ref) => setIncludesServer(set, ref.server));
    const names = assignExposedNames(
      mine.map((r) => ({ server: r.server, tool: r.tool.name })),
      naming === 'always-prefix',
    );
    const all: Entry[] = [];
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
   * Holds a call for confirmation. Asked first ("ask"), the answer tells the model to ask the
   * person for their PIN (never in the answer: a model cannot confirm by itself); "window", that it
   * waits for Allow in the window or the web UI, which nothing the model calls can give.
   */
  private hold(
    voice: VoiceGuard,
    entry: Entry,
    name: string,
    args: Record<string, unknown>,
    context: CallContext,
    via: HeldVia,
    finish: (result: CallToolResult, outcome: CallOutcome, cause?: Problem) => CallAnswer,
  ): CallAnswer {
    const { session, caller, boundTo } = context;
    const action = describeAction(entry.original, name, args);
    // The first call that asks for the PIN makes one if the user set none (shown only in the window).
    const where = via === 'pin' ? voice.pinFor() : undefined;
    voice.confirmations.hold({
      session: session as string,
      via,
      caller,
      owner: context.owner ?? caller,
      server: entry.server,
      tool: name,
      title: actionTitle(entry.original, name),
      action,
      args,
      run: (confirmedBy, options = {}) =>
        this.call(name, args, {
          caller: confirmedBy,
          session: session as string,
          confirmedBy,
          ...(boundTo ? { boundTo } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          ...(options.background ? { background: options.background } : {}),
        }),
      stillAllowed: () => voice.policyOf(entry.server, entry.original) !== 'never',
      // Who asked, what, and what became of it: in the history like the call it would have been.
      ended: (how, by) =>
        this.context.history.add({
          caller:
            how === 'denied'
              ? `${caller} (denied in the ${by ?? 'window'})`
              : how === 'withdrawn'
                ? `${caller} (no longer allowed by voice)`
                : `${caller} (not confirmed in time)`,
          tool: name,
          originalTool: entry.original.name,
          server: entry.server,
          arguments: args,
          durationMs: 0,
          outcome: 'cancelled',
          result: translate(
            this.context.language(),
            how === 'denied' ? 'voice.confirm.denied' : how === 'withdrawn' ? 'voice.confirm.withdrawn' : 'voice.confirm.expired',
            { action },
          ),
        }),
    });
    const language = this.context.language();
    const confirmTool = this.nameOf({ server: BUILTIN_SERVER, tool: CONFIRM_TOOL }) ?? CONFIRM_TOOL;
    const text =
      via === 'window'
        ? translate(language, 'voice.confirm.askWindow', { action })
        : sentences(
            language,
            translate(language, 'voice.confirm.ask', { action, confirmTool }),
            where === undefined ? undefined : translate(language, `voice.confirm.whereIsPin.${where}`),
          );
    return finish(textResult(text), 'held', problem('call.held', { tool: name, via }));
  }

  /**
   * Routes a call to the owning server. Whatever the model should know about (unknown or disabled
   * tool, server down, timeout, the tool's own failure) comes back as an `isError` result it can read.
   */
  async call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallAnswer> {
    const started = performance.now();
    const found = this.byName.get(name);
    const bound = context.boundTo;
    // A session's name stands for the tool it was served, even if the name now means another one.
    const entry = !bound || (found?.server === bound.server && found.original.name === bound.tool) ? found : undefined;
    const shape = context.shape !== false;
    const finish = (result: CallToolResult, outcome: CallOutcome, cause?: Problem): CallAnswer => {
      const shaped = shape ? shapeResult(result, this.context.maxMessageBytes(), context.idJson ?? '0') : result;
      // A voice session never reads the person's PIN, whatever a tool answered (a file tool reading the config).
      const out = context.session !== undefined && this.context.voice ? withoutPin(shaped, this.context.voice.pin()) : shaped;
      this.context.history.add({
        caller: context.caller,
        tool: name,
        originalTool: entry?.original.name ?? name,
        server: entry?.server ?? '',
        arguments: args,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        outcome,
        result: resultText(out),
        ...(context.background?.id !== undefined ? { task: context.background.id } : {}),
        ...(context.background?.disconnected ? { disconnected: true } : {}),
      });
      return cause ? { result: out, problem: cause } : { result: out };
    };
    const refuse = (cause: Problem, outcome: CallOutcome = 'error') =>
      finish(textResult(spokenError(cause, this.context.language()), true), outcome, cause);
    if (!entry) return refuse(problem('call.unknownTool', { tool: name }));
    if (!entry.enabled) return refuse(problem('call.toolOff', { tool: name }));
    let source: ToolSource | undefined;
    for (const s of this.context.sources()) {
      if (s.name === entry.server) {
        source = s;
        break;
      }
    }
    if (!source) return refuse(problem('call.notConfigured', { tool: name, server: entry.server }));
    if (!this.context.argumentChecksOff()?.has(entry.server)) {
      const invalid = this.context.argumentCheck.check(
        { name, server: entry.server, inputSchema: entry.original.inputSchema as Record<string, unknown> },
        args,
        this.context.language(),
      );
      if (invalid) return refuse(problem('call.badArguments', { tool: name, detail: invalid }));
    }
    // A call by voice (an endpoint session) of a risky tool is held until the user confirms it, or refused.
    const voice = this.context.voice;
    // A confirmed call is checked again: the tool may have been set to "never" while it was held.
    if (voice && context.session !== undefined && entry.server !== BUILTIN_SERVER) {
      const policy = voice.policyOf(entry.server, entry.original);
      if (policy === 'never') return refuse(problem('call.refused', { tool: name }));
      if ((policy === 'ask' || policy === 'window') && context.confirmedBy === undefined)
        return this.hold(voice, entry, name, args, context, policy === 'ask' ? 'pin' : 'window', finish);
    }
    // A call by voice is known while in flight: a server's question during it can be put to its caller,
    // and what the server asked that nobody could answer is told with its result.
    const { session, answerNow } = context;
    const inFlight: VoiceCall | undefined =
      voice?.calls && session !== undefined && entry.server !== BUILTIN_SERVER
        ? { session, caller: context.caller, ...(answerNow ? { answerNow } : {}), confirmTool: this.servedConfirmTool() }
        : undefined;
    const leave = inFlight ? voice?.calls?.add(entry.server, inFlight) : undefined;
    try {
      const result = await source.callTool(entry.original.name, args, {
        signal: context.signal,
        onProgress: context.onProgress,
        caller: context.caller,
        session: context.session,
        owner: context.owner,
        ...(context.background ? { background: true, task: context.background } : {}),
        ...(context.nameTask ? { nameTask: context.nameTask } : {}),
      });
      const outputSchema = entry.original.outputSchema as Record<string, unknown> | undefined;
      if (outputSchema && !result.isError) {
        // As the SDK's client did before the relay: a result its own schema refuses is the tool's failure.
        const language = this.context.language();
        const wrong = this.context.argumentCheck.checkOutput(
          { name, server: entry.server, outputSchema },
          result.structuredContent,
          language,
        );
        if (wrong) return refuse(problem('call.failed', { tool: name, detail: `${wrong}${translate(language, 'voice.words.end')}` }));
      }
      if (inFlight?.notes) return finish(toldTruly(result, inFlight.notes, name, this.context.language()), result.isError ? 'error' : 'ok');
      // A failure with no words would reach the user as silence: say at least which tool failed.
      if (result.isError && resultText(result).trim() === '')
        return finish(textResult(translate(this.context.language(), 'voice.call.noReason', { tool: name }), true), 'error');
      return finish(result, result.isError ? 'error' : 'ok');
    } catch (error) {
      if (error instanceof ServerUnavailableError)
        return refuse(problem('call.unavailable', { tool: name, server: entry.server, state: error.state }));
      if (context.signal?.aborted) return refuse(problem('call.cancelled', { tool: name }), 'cancelled');
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        this.context.log.warn(
          `call ${name} (server "${entry.server}") did not finish within ${timeoutSeconds(error) ?? '?'} s; the server was told to cancel it`,
        );
        return refuse(problem('call.timeout', { tool: name, seconds: timeoutSeconds(error) ?? '?' }), 'timeout');
      }
      if (error instanceof ProblemError) {
        // A web service's failure, already worded for the model (HTTP status, the platform's own message).
        this.context.log.warn(`call ${name} failed: ${error.message}`);
        return finish(textResult(spokenServiceError(name, error, this.context.language()), true), 'error', error.problem);
      }
      this.context.log.warn(`call ${name} failed: ${errorText(error)}`);
      return refuse(problem('call.failed', { tool: name, detail: errorText(error) }));
    } finally {
      leave?.();
    }
  }

  /** The confirm tool's name when this set serves it now (listed and on). */
  private servedConfirmTool(): string | undefined {
    const name = this.nameOf({ server: BUILTIN_SERVER, tool: CONFIRM_TOOL });
    return name !== undefined && this.served.some((p) => p.tool.name === name) ? name : undefined;
  }
}

/**
 * A call by voice's result, with what the tool's own words would not say truly: a failure after it
 * wanted xiaozhi's model (sampling, which voice calls cannot offer: its English error, often wrapped
 * twice, is replaced), or a question nobody could be asked (its "declined" was nobody's choice).
 */
function toldTruly(result: CallToolResult, notes: ReadonlySet<VoiceCallNote>, tool: string, language: Language): CallToolResult {
  if (notes.has('sampling') && result.isError) return textResult(translate(language, 'voice.call.samplingRefused', { tool }), true);
  if (!notes.has('unaskable')) return result;
  const said = resultText(result).trim();
  const note = translate(language, 'voice.call.questionNotAsked', { tool });
  return textResult(
    sentences(language, note, said === '' ? undefined : translate(language, 'voice.call.toolSaid', { text: said })),
    result.isError === true,
  );
}

/** Arguments shown in a confirmation request, and how long each value may be: enough to know what is meant. */
const SHOWN_ARGUMENTS = 3;
const SHOWN_VALUE_CHARS = 40;

/** The action as the user will hear it: the tool's title (or name) and its main arguments. */
export function describeAction(tool: Tool, name: string, args: Record<string, unknown>): string {
  const title = actionTitle(tool, name);
  const shown = shownArguments(args).map(({ name: key, value }) => `${key}: ${value}`);
  return shown.length > 0 ? `${title} (${shown.join(', ')})` : title;
}

/** The tool's title, or its name. */
export function actionTitle(tool: Tool, name: string): string {
  return tool.annotations?.title ?? tool.title ?? name;
}

/** Argument names whose values are secrets (api_key, accessToken, password, Authorization…): never shown or said. */
const SECRET_ARGUMENT = /(api[_-]?key|^key$|[_-]key$|secret|token|passw(or)?d|^pwd$|authori[sz]ation|cookie|credential)/i;
const HIDDEN_VALUE = '***';

/** The first few arguments, each value cut short, secrets hidden: what the user is shown and told. */
export function shownArguments(args: Record<string, unknown>): { name: string; value: string }[] {
  return Object.entries(args)
    .slice(0, SHOWN_ARGUMENTS)
    .map(([key, value]) => {
      if (SECRET_ARGUMENT.test(key)) return { name: key, value: HIDDEN_VALUE };
      const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
      return { name: key, value: text.length > SHOWN_VALUE_CHARS ? `${text.slice(0, SHOWN_VALUE_CHARS - 1)}…` : text };
    });
}

/** The limit in seconds to a tenth (0.3, 1.5, 60): whole seconds would say 0 s for a limit under half a second. */
function timeoutSeconds(error: McpError): number | undefined {
  const timeout = (error.data as { timeout?: number } | undefined)?.timeout;
  return typeof timeout === 'number' ? Math.round(timeout / 100) / 10 : undefined;
}
