import { describe, expect, it } from 'vitest';
import { redactText, redactUrl } from '../../../../src/main/core/logs/redact';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VySWQiOjEyMzQ1fQ.abcdefghijklmnop';

describe('redaction', () => {
  it('masks the endpoint token but keeps the URL recognisable', () => {
    expect(redactUrl(`wss://api.xiaozhi.me/mcp/?token=${JWT}`)).toBe('wss://api.xiaozhi.me/mcp/?token=eyJh…(redacted)');
    expect(redactUrl('ws://192.168.1.2:8004/mcp_endpoint/mcp/?token=abc123def456ghi')).toBe('ws://192.168.1.2:8004/mcp_endpoint/mcp/?token=abc1…(redacted)');
  });

  it('scrubs free text: query tokens, Authorization headers, bearer tokens, JWTs, known secrets', () => {
    const text = [
      `failed to connect to wss://api.xiaozhi.me/mcp/?token=${JWT}`,
      'headers: {"Authorization": "Bearer sk-abcdefghijklmnopqrstuvwxyz"}',
      'x-api-key: supersecretvalue123',
      `raw ${JWT} here`,
      'my key is ms-1234567890',
    ].join('\n');
    const out = redactText(text, ['ms-1234567890']);
    expect(out).not.toContain(JWT.slice(20));
    expect(out).not.toContain('sk-abcdefghijklmnopqrstuvwxyz');
    expect(out).not.toContain('supersecretvalue123');
    expect(out).not.toContain('ms-1234567890');
    expect(out).toContain('wss://api.xiaozhi.me/mcp/?token=');
  });
});
