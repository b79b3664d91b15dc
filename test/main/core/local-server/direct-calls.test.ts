import { CallToolResultSchema, ErrorCode, type JSONRPCRequest, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { plainToolCall, servedCallResult } from '../../../../src/main/core/local-server/direct-calls';

const call = (params: unknown): JSONRPCRequest => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) as JSONRPCRequest;

describe('tools/call run below the SDK Protocol', () => {
  it('takes a plain call only: a name, object arguments, a progress token; the rest is the Protocol’s', () => {
    expect(plainToolCall(call({ name: 'echo' }))).toBe(true);
    expect(plainToolCall(call({ name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 'p' } }))).toBe(true);
    expect(plainToolCall(call({ name: 'echo', _meta: { progressToken: 7 } }))).toBe(true);
    // A task, a related task, keys the schema does not know, arguments that are not an object, an unsafe token.
    expect(plainToolCall(call({ name: 'echo', task: { ttl: 1000 } }))).toBe(false);
    expect(plainToolCall(call({ name: 'echo', _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } }))).toBe(false);
    expect(plainToolCall(call({ name: 'echo', extra: 1 }))).toBe(false);
    expect(plainToolCall(call({ name: 'echo', arguments: ['x'] }))).toBe(false);
    expect(plainToolCall(call({ name: 'echo', _meta: { progressToken: 1.5 } }))).toBe(false);
    expect(plainToolCall(call({ arguments: {} }))).toBe(false);
    expect(plainToolCall({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBe(false);
  });

  it('sends a result as the SDK Server would: as it is when the schema leaves it unchanged, else as the schema gives it', () => {
    const plain = { content: [{ type: 'text' as const, text: 'hi' }], isError: true };
    expect(servedCallResult(plain)).toBe(plain);
    const others = [
      { isError: false, content: [{ type: 'text', text: 'order' }] },
      { content: [{ type: 'text', text: 'extra', dropped: 1 }] },
      { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }], structuredContent: { a: 1 } },
      { structuredContent: { a: 1 } },
    ];
    for (const result of others)
      expect(JSON.stringify(servedCallResult(result as never))).toBe(JSON.stringify(CallToolResultSchema.parse(result)));
  });

  it('refuses a result the schema refuses, as the Server does (invalid params)', () => {
    const refused = (() => {
      try {
        servedCallResult({ content: [{ type: 'text' }] } as never);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((refused as McpError).message).toContain('Invalid tools/call result');
  });
});
