import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible chat-completions provider on 127.0.0.1 (port 0), for "Try a sentence", `ask`
 * and sampling answered by the user's model. Shapes as the providers document them:
 * - the request and the answer (`choices[0].message.tool_calls[]` with `id`, `type: "function"`,
 *   `function.name`, `function.arguments` as JSON text; `finish_reason: "tool_calls"`), and the stream
 *   (`data: {chat.completion.chunk}` lines whose `delta.tool_calls[]` carry an `index`, the id and name in
 *   the first fragment and the arguments in pieces after; `data: [DONE]` last): OpenAI's API reference,
 *   https://platform.openai.com/docs/api-reference/chat (create, and the streaming chunk object), which
 *   DeepSeek (https://api-docs.deepseek.com/guides/function_calling) and DashScope's compatible mode
 *   (https://help.aliyun.com/zh/model-studio/compatibility-of-openai-with-dashscope) follow;
 * - errors as `{"error": {"message", "type", "param", "code"}}` (OpenAI's error object): 401 for a wrong
 *   key and 429 for a rate limit (DeepSeek, https://api-docs.deepseek.com/quick_start/error_codes: "401 -
 *   Authentication Fails", "429 - Rate Limit Reached"), with `Retry-After`; a context-length refusal as
 *   DeepSeek words it, 400 with code `invalid_request_error` and "This model's maximum context length is
 *   … tokens" (quoted in evalstate/fast-agent issue 621), so that the message, not the code, must be read.
 * What a test scripts is the model's turn: a tool call or text, from the request it was sent.
 */

export const MODEL_KEY = 'sk-STANDIN-model-key-0123456789abcdef';

/** One turn of the model: call a function, or say something. */
export type ModelTurn = { call: string; arguments: unknown } | { text: string };

export interface ChatBody {
  model: string;
  messages: { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
  max_tokens?: number;
}

export interface SeenChat {
  body: ChatBody;
  authorization: string | undefined;
  path: string;
}

/** A failure the next requests get instead of an answer. */
export type ModelFailure = 'rate-limit' | 'context-length' | 'no-answer';

export class ModelStandIn {
  readonly seen: SeenChat[] = [];
  /** The model's turn for a request; by default, it says "ok". */
  reply: (body: ChatBody) => ModelTurn = () => ({ text: 'ok' });
  /** Set: every request fails so. */
  failure: ModelFailure | undefined;
  /** The key it accepts (undefined: any, as a local Ollama). */
  key: string | undefined = MODEL_KEY;

  private constructor(
    private readonly server: http.Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<ModelStandIn> {
    const holder: { self?: ModelStandIn } = {};
    const server = http.createServer((req, res) => {
      holder.self?.handle(req, res).catch(() => res.headersSent || res.writeHead(500).end());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    holder.self = new ModelStandIn(server, `http://127.0.0.1:${port}/v1`);
    return holder.self;
  }

  /** The functions a request offered, by name. */
  static offered(body: ChatBody): string[] {
    return (body.tools ?? []).map((t) => t.function.name);
  }

  /** The user's sentence of a request (its last user message). */
  static sentence(body: ChatBody): string {
    const user = [...body.messages].reverse().find((m) => m.role === 'user');
    return typeof user?.content === 'string' ? user.content : '';
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return error(res, 404, 'Not found', 'not_found');
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
    this.seen.push({ body, authorization: req.headers.authorization, path: req.url });
    if (this.key !== undefined && req.headers.authorization !== `Bearer ${this.key}`)
      return error(res, 401, 'Authentication Fails, Your api key: ****cdef is invalid', 'invalid_request_error');
    if (this.failure === 'rate-limit') {
      res.setHeader('retry-after', '20');
      return error(res, 429, 'Rate Limit Reached', 'rate_limit_exceeded');
    }
    if (this.failure === 'context-length')
      return error(
        res,
        400,
        "This model's maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
        'invalid_request_error',
      );
    if (this.failure === 'no-answer') return; // holds the request until the client gives up
    const turn = this.reply(body);
    if (body.stream === true) return stream(res, body.model, turn);
    const message =
      'call' in turn
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: callId(), type: 'function', function: { name: turn.call, arguments: argumentText(turn.arguments) } }],
          }
        : { role: 'assistant', content: turn.text };
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        id: 'chatcmpl-standin',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message, finish_reason: 'call' in turn ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
      }),
    );
  }
}

let calls = 0;
const callId = () => `call_${(++calls).toString(16).padStart(8, '0')}`;
const argumentText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function error(res: http.ServerResponse, status: number, message: string, code: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } }));
}

/** The turn as a stream: role first, then the call's id and name, its arguments in two pieces, the finish, [DONE]. */
function stream(res: http.ServerResponse, model: string, turn: ModelTurn): void {
  res.setHeader('content-type', 'text/event-stream');
  const base = { id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const send = (delta: unknown, finish: string | null = null) =>
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  send({ role: 'assistant', content: '' });
  if ('call' in turn) {
    const text = argumentText(turn.arguments);
    const half = Math.floor(text.length / 2);
    send({ tool_calls: [{ index: 0, id: callId(), type: 'function', function: { name: turn.call, arguments: '' } }] });
    send({ tool_calls: [{ index: 0, function: { arguments: text.slice(0, half) } }] });
    send({ tool_calls: [{ index: 0, function: { arguments: text.slice(half) } }] });
    send({}, 'tool_calls');
  } else {
    const chars = [...turn.text];
    const half = Math.floor(chars.length / 2);
    send({ content: chars.slice(0, half).join('') });
    send({ content: chars.slice(half).join('') });
    send({}, 'stop');
  }
  res.end('data: [DONE]\n\n');
}
