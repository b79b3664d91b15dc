import type { SamplingBounds } from '../../../shared/model-settings';
import { problem } from '../../../shared/problem';
import type { VoiceCall, VoiceCalls } from '../hub/builtin/voice-calls';
import type { Logger } from '../logs/log-book';
import type { ChatMessage, ModelClient } from './model-client';
import { modelEnglish, ModelError } from './model-problems';

/** What our MCP client answers a server's `sampling/createMessage` with. */
export interface SampledMessage {
  role: 'assistant';
  content: { type: 'text'; text: string };
  model: string;
  stopReason: 'endTurn' | 'maxTokens';
  [key: string]: unknown;
}

/** A request the MCP client refuses (its code goes back to the server as JSON-RPC's). */
function refusal(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: -32603 });
}

/** A sampling message's text (a list of parts in the newer revision); anything else is named, not sent. */
function textOf(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => {
      const item = part as { type?: unknown; text?: unknown } | null;
      if (item?.type === 'text' && typeof item.text === 'string') return item.text;
      return `[${typeof item?.type === 'string' ? item.type : 'content'}]`;
    })
    .join('\n');
}

export interface SamplingDeps {
  /** The model, when one is set up and the user agreed that it answer servers' sampling by voice. */
  model(): { client: ModelClient; bounds: SamplingBounds } | undefined;
  calls: VoiceCalls;
  log: Logger;
}

/**
 * A server's `sampling/createMessage` during a call by voice, answered by the user's model (with
 * their consent: off by default), bounded in tokens, time and count per call. What was asked and
 * answered is never logged, only its size: the server's messages may hold anything.
 */
export class SamplingAnswers {
  private readonly counts = new WeakMap<VoiceCall, number>();

  constructor(private readonly deps: SamplingDeps) {}

  /** The model's answer, or undefined when it does not answer this one (no consent, no model, no call by voice in flight to that server). */
  ask(server: string, params: unknown, signal: AbortSignal): Promise<SampledMessage> | undefined {
    const model = this.deps.model();
    const call = this.deps.calls.only(server);
    if (!model || !call) return undefined;
    const used = this.counts.get(call) ?? 0;
    if (used >= model.bounds.perCall) {
      this.deps.log.warn(
        `server "${server}" asked the model more than ${model.bounds.perCall} times during one call by voice; the rest are refused`,
      );
      this.deps.calls.note(server, 'sampling');
      return Promise.reject(refusal(`at most ${model.bounds.perCall} model requests per call`));
    }
    this.counts.set(call, used + 1);
    return this.answer(server, params, signal, model.client, model.bounds);
  }

  private async answer(server: string, params: unknown, signal: AbortSignal, client: ModelClient, bounds: SamplingBounds) {
    const request = (params ?? {}) as { messages?: { role?: unknown; content?: unknown }[]; systemPrompt?: unknown; maxTokens?: unknown };
    const messages: ChatMessage[] = [];
    if (typeof request.systemPrompt === 'string' && request.systemPrompt !== '')
      messages.push({ role: 'system', content: request.systemPrompt });
    for (const message of Array.isArray(request.messages) ? request.messages.slice(0, 100) : [])
      messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content: textOf(message.content) });
    const asked = typeof request.maxTokens === 'number' && request.maxTokens > 0 ? Math.floor(request.maxTokens) : bounds.maxTokens;
    const maxTokens = Math.min(asked, bounds.maxTokens);
    const characters = messages.reduce((sum, m) => sum + (typeof m.content === 'string' ? m.content.length : 0), 0);
    const started = performance.now();
    try {
      const reply = await client.chat({ messages, maxTokens, timeoutMs: bounds.timeoutMs, signal });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      this.deps.log.info(
        `server "${server}" asked the model during a call by voice: ${messages.length} messages (${characters} characters) in, ${reply.content.length} characters out in ${seconds} s (${client.model}, at most ${maxTokens} tokens)`,
      );
      return {
        role: 'assistant' as const,
        content: { type: 'text' as const, text: reply.content },
        model: client.model,
        stopReason: reply.finish === 'length' ? ('maxTokens' as const) : ('endTurn' as const),
      };
    } catch (error) {
      const cause = error instanceof ModelError ? error.problem : problem('model.failed', { status: 0, detail: String(error) });
      this.deps.log.warn(`the model could not answer server "${server}"'s sampling request: ${modelEnglish(cause)}`);
      // The tool's failure is then said truly: it wanted a model, which could not answer.
      this.deps.calls.note(server, 'sampling');
      throw refusal(modelEnglish(cause));
    }
  }
}
