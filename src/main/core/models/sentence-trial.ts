import { randomUUID } from 'node:crypto';

import { type Language, translate } from '../../../shared/i18n/translate';
import type { SentencePick, SentenceTry } from '../../../shared/model-api';
import { type Problem, problem } from '../../../shared/problem';
import type { CatalogTool } from '../../../shared/status';
import type { ArgumentCheck } from '../hub/argument-check';
import { BUILTIN_SERVER } from '../hub/builtin/builtin-tools';
import { CONFIRM_TOOL } from '../hub/builtin/confirm-tool';
import { CONFIRM_WINDOW_MS } from '../hub/builtin/confirmations';
import { resultText } from '../hub/result-shaping';
import type { CallAnswer, CallContext, ToolHub } from '../hub/tool-hub';
import { CALL_TOOL, FIND_TOOLS } from '../router/router-tools';
import type { EndpointCatalogs, EndpointMode } from '../serving/endpoint-catalogs';
import type { ChatMessage, ChatTool, ModelClient, ToolCall } from './model-client';
import { ModelError } from './model-problems';
import { servedFunctions, xiaozhiPrompt } from './served-functions';

/** Who a tried sentence's calls are by, in the history and the activity (and who a held one is allowed for). */
export const TRY_CALLER = 'try a sentence';
/** Model turns before a pick: router mode searches (once, maybe twice) before it calls. */
const MAX_TURNS = 4;
/** Held conversations kept for their PIN, and how long. */
const MAX_KEPT = 16;
const KEPT_MS = CONFIRM_WINDOW_MS + 30_000;

export interface TrialDeps {
  catalogs: Pick<EndpointCatalogs, 'pagesFor' | 'router' | 'forSet'>;
  hub: Pick<ToolHub, 'forSet'>;
  /** The voice language: the prompt, and the argument check's words. */
  language(): Language;
  /** Whether a server's calls are checked against their schemas (absent from the set: yes). */
  argumentsChecked(server: string): boolean;
  check: ArgumentCheck;
  /** Everything shown leaves redacted with the known secrets. */
  redact(text: string): string;
}

export interface TrialOptions {
  run?: boolean;
  signal?: AbortSignal;
  /** The endpoint tried (said back). */
  endpoint?: string;
}

/** A held call's conversation, waiting for the PIN. */
interface Kept {
  client: ModelClient;
  mode: EndpointMode;
  messages: ChatMessage[];
  functions: ChatTool[];
  endpoint: string | undefined;
  until: number;
}

/** The model's arguments: an object, or what it wrote when that is not one. */
type Parsed = { object: Record<string, unknown> } | { text: string };

function parsed(text: string): Parsed {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { object: value as Record<string, unknown> };
  } catch {
    // said below as text
  }
  return { text };
}

/**
 * "Will xiaozhi pick my tool?": a sentence put to the user's model with exactly what an endpoint
 * serves (all or router mode, built-in tools included, in the voice language) and a prompt like
 * xiaozhi's. The tool it picks, its arguments and our argument check's verdict are shown; only when
 * the user asks does the pick run, through the endpoint's one call path, as a call by voice (its
 * policy holds it for the PIN or the window, or refuses it), and the model says its short answer.
 * In router mode, find_tools runs (it only searches) so the model gets to call_tool as it would.
 */
export class SentenceTrial {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly deps: TrialDeps) {}

  async try(client: ModelClient, sentence: string, mode: EndpointMode, options: TrialOptions = {}): Promise<SentenceTry> {
    const { functions, bytes } = servedFunctions(this.deps.catalogs.pagesFor(mode));
    const out: SentenceTry = {
      mode: mode.toolMode,
      ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
      functions: functions.length,
      bytes,
      finds: [],
      requests: 0,
    };
    const served = new Set(functions.map((f) => (f.type === 'function' ? f.function.name : '')));
    const session = `try-${randomUUID()}`;
    const messages: ChatMessage[] = [xiaozhiPrompt(this.deps.language()), { role: 'user', content: sentence }];
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      const reply = await this.ask(client, out, { messages, tools: functions, ...(options.signal ? { signal: options.signal } : {}) });
      if (!reply) return out;
      const call = reply.toolCalls[0];
      if (!call) {
        out.answer = this.deps.redact(reply.content.trim());
        return out;
      }
      const args = parsed(call.arguments);
      messages.push(assistantCall(reply.content, call));
      if (mode.toolMode === 'router' && call.name === FIND_TOOLS && served.has(FIND_TOOLS)) {
        const answer = await this.callServed(mode, call.name, 'object' in args ? args.object : {}, session);
        const text = resultText(answer.result);
        out.finds.push({ query: 'object' in args ? String(args.object.query ?? '') : '', found: foundNames(text) });
        messages.push({ role: 'tool', tool_call_id: call.id, content: text });
        continue;
      }
      out.pick = this.pick(call, args, mode, served);
      // A name it was not served, xiaozhi refuses on its own side: nothing runs.
      if (options.run !== true || out.pick.check === 'unknown') return out;
      const answer = await this.callServed(mode, call.name, 'object' in args ? args.object : {}, session);
      this.ran(out, answer);
      messages.push({ role: 'tool', tool_call_id: call.id, content: resultText(answer.result) });
      if (out.run?.held) {
        this.keep(session, { client, mode, messages, functions, endpoint: options.endpoint, until: Date.now() + KEPT_MS });
        out.session = session;
      }
      await this.saidAfter(client, out, messages, functions, options.signal);
      return out;
    }
    return out;
  }

  /** A held call confirmed with the PIN the person would say: confirm_action in the same conversation, then what the model says. */
  async confirm(session: string, pin: string, signal?: AbortSignal): Promise<SentenceTry> {
    this.sweep();
    const kept = this.kept.get(session);
    if (!kept) return { mode: 'all', functions: 0, bytes: 0, finds: [], requests: 0, problem: problem('model.sessionGone') };
    const { client, mode, messages, functions } = kept;
    const out: SentenceTry = {
      mode: mode.toolMode,
      ...(kept.endpoint !== undefined ? { endpoint: kept.endpoint } : {}),
      functions: functions.length,
      bytes: 0,
      finds: [],
      requests: 0,
    };
    const name = this.deps.hub.forSet(mode.toolSet).nameOf({ server: BUILTIN_SERVER, tool: CONFIRM_TOOL }) ?? CONFIRM_TOOL;
    const answer = await this.callServed(mode, name, { pin }, session);
    this.ran(out, answer);
    // The provider never gets the PIN: the conversation shows that one was said, not which.
    const call: ToolCall = { id: `call_${randomUUID().slice(0, 8)}`, name, arguments: JSON.stringify({ pin: '****' }) };
    messages.push(assistantCall('', call), { role: 'tool', tool_call_id: call.id, content: resultText(answer.result) });
    // A wrong PIN leaves the action waiting: the person may say it again.
    if (out.run?.isError !== true) this.kept.delete(session);
    else out.session = session;
    await this.saidAfter(client, out, messages, functions, signal);
    return out;
  }

  /** One model request, counted; its failure becomes the answer's problem. */
  private async ask(client: ModelClient, out: SentenceTry, request: Parameters<ModelClient['chat']>[0]) {
    try {
      return await client.chat(request);
    } catch (error) {
      out.problem = error instanceof ModelError ? error.problem : problem('model.failed', { status: 0, detail: String(error) });
      return undefined;
    } finally {
      out.requests++;
    }
  }

  /** The short text the model says once it has the result. */
  private async saidAfter(client: ModelClient, out: SentenceTry, messages: ChatMessage[], tools: ChatTool[], signal?: AbortSignal) {
    const reply = await this.ask(client, out, { messages, tools, ...(signal ? { signal } : {}) });
    if (reply) out.said = this.deps.redact(reply.content.trim());
  }

  private ran(out: SentenceTry, answer: CallAnswer): void {
    const held = answer.problem?.code === 'call.held' ? (answer.problem.params.via === 'window' ? 'window' : 'pin') : undefined;
    out.run = {
      text: this.deps.redact(resultText(answer.result)),
      isError: answer.result.isError === true,
      ...(answer.problem ? { problem: redactedProblem(answer.problem, this.deps.redact) } : {}),
      ...(held ? { held } : {}),
    };
  }

  /** The tool the model picked (in router mode, what it gave call_tool), and what our argument check says of its arguments. */
  private pick(call: ToolCall, args: Parsed, mode: EndpointMode, served: ReadonlySet<string>): SentencePick {
    const throughRouter = mode.toolMode === 'router' && call.name === CALL_TOOL && served.has(CALL_TOOL);
    let name = call.name;
    let inner: Parsed = args;
    if (throughRouter) {
      const given = 'object' in args ? args.object : {};
      name = typeof given.name === 'string' ? given.name.trim() : '';
      const value = given.arguments ?? {};
      // Models sometimes send call_tool's arguments as JSON text: the router reads it so too.
      inner =
        typeof value === 'string'
          ? parsed(value)
          : typeof value === 'object' && value !== null && !Array.isArray(value)
            ? { object: value as Record<string, unknown> }
            : { text: JSON.stringify(value) };
    }
    const shown = {
      name,
      via: throughRouter ? ('call_tool' as const) : ('direct' as const),
      ...('object' in inner
        ? { arguments: redactedValue(inner.object, this.deps.redact) }
        : { argumentsText: this.deps.redact(inner.text) }),
    };
    const entry = this.entry(mode, name, throughRouter || served.has(name));
    if (!entry) return { ...shown, check: 'unknown' };
    const identity = { server: entry.server, tool: entry.originalName };
    if (!('object' in inner))
      return {
        ...shown,
        ...identity,
        check: 'refused',
        checkText: translate(this.deps.language(), 'voice.router.argumentsNotObject', { tool: name }),
      };
    const refused = this.deps.argumentsChecked(entry.server)
      ? this.deps.check.check({ name, server: entry.server, inputSchema: entry.inputSchema }, inner.object, this.deps.language())
      : undefined;
    return { ...shown, ...identity, check: refused === undefined ? 'ok' : 'refused', ...(refused ? { checkText: refused } : {}) };
  }

  /** The set's tool of this name, when the model may call it: served (or, through call_tool, one the router finds). */
  private entry(mode: EndpointMode, name: string, reachable: boolean): CatalogTool | undefined {
    if (!reachable || name === '') return undefined;
    return this.deps.hub
      .forSet(mode.toolSet)
      .catalog()
      .find((tool) => tool.name === name && tool.enabled);
  }

  /** A call as the endpoint would make it, by voice (a session: the policies hold or refuse it). */
  private callServed(mode: EndpointMode, name: string, args: Record<string, unknown>, session: string): Promise<CallAnswer> {
    const context: CallContext = { caller: TRY_CALLER, session, owner: TRY_CALLER, idJson: '0' };
    return mode.toolMode === 'router'
      ? this.deps.catalogs.router(mode.toolSet).call(name, args, context)
      : this.deps.catalogs.forSet(mode.toolSet).call(name, args, context);
  }

  private keep(session: string, kept: Kept): void {
    this.sweep();
    while (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(session, kept);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [session, kept] of [...this.kept]) if (kept.until < now) this.kept.delete(session);
  }
}

/** The assistant's turn that called a function, as the provider expects it back. */
function assistantCall(content: string, call: ToolCall): ChatMessage {
  return {
    role: 'assistant',
    content: content || null,
    tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments || '{}' } }],
  };
}

/** The names find_tools showed the model (its answer is JSON with `tools`; a "no match" text shows none). */
function foundNames(text: string): string[] {
  try {
    const value = JSON.parse(text) as { tools?: { name?: unknown }[] };
    return Array.isArray(value.tools) ? value.tools.flatMap((t) => (typeof t.name === 'string' ? [t.name] : [])) : [];
  } catch {
    return [];
  }
}

/** A value the model wrote, redacted like every text that leaves the engine. */
function redactedValue(value: unknown, redact: (text: string) => string): unknown {
  const text = JSON.stringify(value);
  const clean = redact(text);
  if (clean === text) return value;
  try {
    return JSON.parse(clean) as unknown;
  } catch {
    return clean;
  }
}

function redactedProblem(item: Problem, redact: (text: string) => string): Problem {
  return { ...item, params: Object.fromEntries(Object.entries(item.params).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v])) };
}
