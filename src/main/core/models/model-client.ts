import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

import { type ModelSettings, modelTarget } from '../../../shared/model-settings';
import { problem } from '../../../shared/problem';
import { boundedFetch } from '../io/bounded-fetch';
import { ModelError, providerProblem } from './model-problems';

export type ChatMessage = ChatCompletionMessageParam;
export type ChatTool = ChatCompletionTool;

/** A function the model asked for: its name and its arguments as the JSON text it wrote. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What the model answered: its text, the functions it called, and why it stopped. */
export interface ChatReply {
  content: string;
  toolCalls: ToolCall[];
  finish: string | null;
  /** Tokens in and out, when the provider says. */
  usage?: { prompt: number; completion: number };
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ChatTool[];
  maxTokens?: number;
  signal?: AbortSignal;
  /** Overrides the client's time bound for this request. */
  timeoutMs?: number;
}

/** How long a request may take unless told otherwise: a small model on a laptop can take a while. */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;
/** The most a provider's answer may be (a chat completion is a few KB; a stream's event far less). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

type OpenAiModule = typeof import('openai');
let loading: Promise<OpenAiModule> | undefined;
/** The `openai` package is loaded when a model is first asked: most runs never ask one. */
const openAi = (): Promise<OpenAiModule> => (loading ??= loadOpenAi());

/** The library from its own bundle beside ours when there is one (the built app), else from node_modules (tests, development). */
function loadOpenAi(): Promise<OpenAiModule> {
  const beside = typeof __dirname === 'string' ? path.join(__dirname, 'openai.js') : undefined;
  if (beside !== undefined && fs.existsSync(beside)) return Promise.resolve(createRequire(beside)(beside) as OpenAiModule);
  return import('openai');
}

/**
 * One OpenAI-compatible chat-completions client with function calling, over the `openai` package
 * (6.x: the last major version for Node 20), for every provider: DeepSeek, Qwen, Doubao, GLM, Kimi,
 * OpenAI, a local Ollama or any other compatible address. No retries of its own (a rate limit is
 * said, with the wait the provider asks for), bodies bounded, its own logging off (it would print
 * what was sent), and every failure a `ModelError` whose problem the window words.
 */
export class ModelClient {
  readonly baseUrl: string;
  readonly model: string;
  private client: Promise<InstanceType<OpenAiModule['OpenAI']>> | undefined;

  constructor(
    private readonly settings: ModelSettings,
    private readonly options: { timeoutMs?: number; fetch?: typeof fetch } = {},
  ) {
    const target = modelTarget(settings);
    this.baseUrl = target.baseUrl;
    this.model = target.model;
  }

  private async sdk(): Promise<InstanceType<OpenAiModule['OpenAI']>> {
    this.client ??= openAi().then(
      ({ OpenAI }) =>
        new OpenAI({
          // A local Ollama takes any key; the SDK refuses none at all.
          apiKey: this.settings.apiKey ?? 'none',
          baseURL: this.baseUrl,
          timeout: this.options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
          maxRetries: 0,
          logLevel: 'off',
          fetch: boundedFetch(MAX_ANSWER_BYTES, () => undefined, this.options.fetch ?? fetch) as typeof fetch,
          // Not a browser, whatever the environment looks like (the window never holds the key).
          dangerouslyAllowBrowser: true,
        }),
    );
    return this.client;
  }

  /** One chat completion; throws a `ModelError` saying why there is none. */
  async chat(request: ChatRequest): Promise<ChatReply> {
    const sdk = await this.sdk();
    const module = await openAi();
    const body = {
      model: this.model,
      messages: request.messages,
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    };
    const options = {
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.timeoutMs !== undefined ? { timeout: request.timeoutMs } : {}),
    };
    try {
      if (this.settings.stream === true) {
        const stream = await sdk.chat.completions.create({ ...body, stream: true }, options);
        return await collect(stream);
      }
      const completion = await sdk.chat.completions.create({ ...body, stream: false }, options);
      const choice = completion.choices[0];
      return {
        content: choice?.message.content ?? '',
        toolCalls: (choice?.message.tool_calls ?? []).flatMap((call) =>
          call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments ?? '' }] : [],
        ),
        finish: choice?.finish_reason ?? null,
        ...(completion.usage ? { usage: { prompt: completion.usage.prompt_tokens, completion: completion.usage.completion_tokens } } : {}),
      };
    } catch (error) {
      throw this.failure(module, error, request);
    }
  }

  private failure(module: OpenAiModule, error: unknown, request: ChatRequest): ModelError {
    if (error instanceof ModelError) return error;
    if (error instanceof module.APIUserAbortError || request.signal?.aborted) return new ModelError(problem('model.cancelled'));
    if (error instanceof module.APIConnectionTimeoutError) {
      const ms = request.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
      return new ModelError(problem('model.timeout', { seconds: Math.round(ms / 100) / 10 }));
    }
    if (error instanceof module.APIConnectionError) {
      const cause = (error as { cause?: { code?: string; message?: string; cause?: { code?: string } } }).cause;
      const detail = cause?.cause?.code ?? cause?.code ?? '';
      return new ModelError(problem('model.unreachable', { url: this.baseUrl, detail }));
    }
    if (error instanceof module.APIError) {
      const body = error.error as { message?: unknown } | undefined;
      const message = typeof body?.message === 'string' ? body.message : error.message;
      return new ModelError(
        providerProblem(
          { status: error.status, code: error.code, message, retryAfter: error.headers?.get('retry-after') ?? undefined },
          this.model,
        ),
      );
    }
    // An answer that is not a chat completion (a proxy's HTML page, a body past its bound).
    return new ModelError(
      problem('model.failed', { status: 0, detail: error instanceof Error ? error.message.slice(0, 200) : String(error) }),
    );
  }
}

/** A streamed completion put together: text deltas joined, each tool call's name and argument fragments by index. */
async function collect(
  stream: AsyncIterable<{
    choices: {
      delta?: { content?: string | null; tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[] };
      finish_reason?: string | null;
    }[];
    usage?: { prompt_tokens: number; completion_tokens: number } | null;
  }>,
): Promise<ChatReply> {
  let content = '';
  let finish: string | null = null;
  let usage: ChatReply['usage'];
  const calls = new Map<number, ToolCall>();
  for await (const chunk of stream) {
    if (chunk.usage) usage = { prompt: chunk.usage.prompt_tokens, completion: chunk.usage.completion_tokens };
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.delta?.content) content += choice.delta.content;
    for (const part of choice.delta?.tool_calls ?? []) {
      const call = calls.get(part.index) ?? { id: '', name: '', arguments: '' };
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
      calls.set(part.index, call);
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  return { content, toolCalls, finish, ...(usage ? { usage } : {}) };
}
