import {
  type CallToolRequest,
  type CallToolResult,
  CallToolResultSchema,
  type CreateTaskResult,
  ErrorCode,
  type JSONRPCRequest,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * A session's `tools/call` handler, as its SDK `Server` has it too. DirectRequests runs it itself
 * for a call that is plainly well formed (`plainToolCall`), skipping what the SDK's Protocol
 * does per request before a handler runs: three zod checks of the message's kind (two of them
 * failing, which builds their error reports), two zod parses of the request, an abort controller
 * in its map, and it checks the result as the Server does (`servedCallResult`).
 */
export type CallHandler<Extra> = (request: CallToolRequest, extra: Extra) => Promise<CallToolResult | CreateTaskResult>;

const CALL_KEYS = new Set(['name', 'arguments', '_meta']);

/**
 * A `tools/call` the SDK's `CallToolRequestSchema` takes as it is: a name, arguments that are an
 * object, a `_meta` that holds a progress token only. Anything else (a task, a related task, keys
 * the schema would drop) goes through the SDK's Protocol, which answers it as before.
 */
export function plainToolCall(request: JSONRPCRequest): request is JSONRPCRequest & CallToolRequest {
  if (request.method !== 'tools/call') return false;
  const params = request.params as Record<string, unknown> | undefined;
  if (params === undefined || typeof params.name !== 'string') return false;
  for (const key in params) if (!CALL_KEYS.has(key)) return false;
  const args = params.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return false;
  for (const key in meta) if (key !== 'progressToken') return false;
  const token = (meta as Record<string, unknown>).progressToken;
  return token === undefined || typeof token === 'string' || Number.isSafeInteger(token);
}

/**
 * The result as the SDK's Server sends it: checked against `CallToolResultSchema` (an invalid one
 * is an error), which returns it as parsed. A result of text items only, in the schema's key
 * order, is what that parse gives back unchanged: it is sent as it is, without the parse.
 */
export function servedCallResult(result: CallToolResult | CreateTaskResult): CallToolResult {
  if (plainTextResult(result)) return result as CallToolResult;
  const parsed = CallToolResultSchema.safeParse(result);
  if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${parsed.error.message}`);
  return parsed.data;
}

function plainTextResult(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return false;
  const keys = Object.keys(result);
  if (keys[0] !== 'content' || keys.length > 2 || (keys.length === 2 && keys[1] !== 'isError')) return false;
  const { content, isError } = result as Record<string, unknown>;
  if (!Array.isArray(content) || (isError !== undefined && typeof isError !== 'boolean')) return false;
  for (const item of content as unknown[]) {
    if (typeof item !== 'object' || item === null) return false;
    const { type, text } = item as Record<string, unknown>;
    if (type !== 'text' || typeof text !== 'string') return false;
    const itemKeys = Object.keys(item);
    if (itemKeys.length !== 2 || itemKeys[0] !== 'type' || itemKeys[1] !== 'text') return false;
  }
  return true;
}
