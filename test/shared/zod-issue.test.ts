import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { SettingsSchema } from '../../src/shared/settings';
import { firstIssue } from '../../src/shared/zod-issue';

const messages = (input: unknown) => {
  const parsed = SettingsSchema.safeParse(input);
  expect(parsed.success).toBe(false);
  return Object.fromEntries((parsed.error as z.ZodError).issues.map((i) => [i.path.join('.'), i.message]));
};

describe('schema errors in readable words', () => {
  it('says which transports exist, and that a missing one is required', () => {
    expect(messages({ servers: [{ name: 'x', transport: 'pipe' }, { name: 'y' }] })).toEqual({
      'servers.0.transport': 'must be one of stdio, sse, streamable-http, http-api, openapi, coze, dify, n8n, home-assistant',
      'servers.1.transport':
        'is required and must be one of stdio, sse, streamable-http, http-api, openapi, coze, dify, n8n, home-assistant',
    });
  });

  it('words types, ranges, enums and missing fields without echoing the value', () => {
    const found = messages({
      endpoints: [{ name: 'home', url: 'wss://x/mcp', enabled: 'yes-secret-value' }],
      limits: { maxMessageBytes: 'big', callTimeoutMs: 5 },
      naming: 'short',
      servers: [{ name: 'a', transport: 'stdio', command: 'x', args: [1], callTimeoutMs: 1.5 }],
      toolSets: [{ name: 'kitchen', tools: { a: [] } }],
    });
    expect(found).toEqual({
      'endpoints.0.id': 'is required',
      'endpoints.0.enabled': 'must be true or false, not text',
      'limits.maxMessageBytes': 'must be a number, not text',
      'limits.callTimeoutMs': 'must be at least 100',
      naming: 'must be one of auto, always-prefix',
      'servers.0.args.0': 'must be text, not a whole number',
      'servers.0.callTimeoutMs': 'must be a whole number, not a fraction',
      'toolSets.0.tools.a': 'must be an object, not a list',
    });
    expect(JSON.stringify(found)).not.toContain('yes-secret-value');
  });

  it('keeps the messages a schema sets itself, and reaches schemas outside settings', () => {
    expect(messages({ endpoints: [{ id: '1', name: '', url: 'http://x' }] })).toEqual({
      'endpoints.0.name': 'must not be empty',
      'endpoints.0.url': 'must be a ws:// or wss:// URL',
    });
    const other = z.object({ port: z.number().max(65535), tags: z.array(z.string()).min(2) }).safeParse({ port: 70000, tags: ['a'] });
    expect(other.error?.issues.map((i) => i.message)).toEqual(['must be at most 65535', 'must be at least 2 items']);
    expect(firstIssue(other.error as z.ZodError)).toEqual({ path: 'port', message: 'must be at most 65535' });
  });
});
