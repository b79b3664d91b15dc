import { describe, expect, it } from 'vitest';

import { looksSecret, maskArgs, redactText, redactUrl, secretArgValues } from '../../../../src/main/core/logs/redact';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VySWQiOjEyMzQ1fQ.abcdefghijklmnop';

describe('redaction', () => {
  it('masks the endpoint token but keeps the URL recognisable', () => {
    expect(redactUrl(`wss://api.xiaozhi.me/mcp/?token=${JWT}`)).toBe('wss://api.xiaozhi.me/mcp/?token=eyJh…(redacted)');
    expect(redactUrl('ws://192.168.1.2:8004/mcp_endpoint/mcp/?token=abc123def456ghi')).toBe(
      'ws://192.168.1.2:8004/mcp_endpoint/mcp/?token=abc1…(redacted)',
    );
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

describe('redaction of what the first pass missed', () => {
  it('masks passwords in URLs, key formats known by their look, and secret assignments in free text', () => {
    const text = [
      'connect postgresql://admin:S3cretPassw0rd@db.local/app failed',
      'using sk-proj-abcdefghijklmnop1234 and sk-ant-api03-abcdefghijklmnopqrst',
      'token ghp_abcdefghijklmnopqrstuvwxyz0123 and AKIAABCDEFGHIJKLMNOP',
      'config {"apiKey":"k-1234567890abc","password": "hunter2hunter2"} secret=topsecretvalue',
    ].join('\n');
    const out = redactText(text);
    for (const secret of [
      'S3cretPassw0rd',
      'abcdefghijklmnop1234',
      'api03-abcdefghijklmnopqrst',
      'ghp_abcdefghijklmnopqrstuvwxyz0123',
      'AKIAABCDEFGHIJKLMNOP',
      'k-1234567890abc',
      'hunter2hunter2',
      'topsecretvalue',
    ]) {
      expect(out, secret).not.toContain(secret);
    }
    expect(out).toContain('postgresql://admin:…(redacted)@db.local/app');
  });

  it('masks header arguments and URL passwords on a command line, and finds their values', () => {
    const args = [
      '-y',
      'mcp-remote',
      'https://mcp.example.com/sse',
      '--header',
      'Authorization: Bearer abcdef123456789',
      '-H',
      'X-API-Key: key-987654321',
      'postgresql://admin:S3cretPassw0rd@db/app',
    ];
    expect(maskArgs(args)).toEqual([
      '-y',
      'mcp-remote',
      'https://mcp.example.com/sse',
      '--header',
      'Authorization: Bearer abcd…(redacted)',
      '-H',
      'X-API-Key: key-…(redacted)',
      'postgresql://admin:S3cr…(redacted)@db/app',
    ]);
    expect(secretArgValues(args).sort()).toEqual(['S3cretPassw0rd', 'abcdef123456789', 'key-987654321']);
  });

  it('counts names like ALIYUN_AK, TENCENT_SK, SENTRY_DSN and SLACK_WEBHOOK_URL as secret, not MONKEY or TASK', () => {
    for (const name of ['ALIYUN_AK', 'TENCENT_SK', 'SENTRY_DSN', 'SLACK_WEBHOOK_URL', 'OPENAI_KEY', 'DB_PASS'])
      expect(looksSecret(name), name).toBe(true);
    for (const name of ['MONKEY', 'TASK', 'DISK', 'LANGUAGE', 'PATH']) expect(looksSecret(name), name).toBe(false);
  });
});

/** Issue 33: a server's "Authorization: must be set" reached the Logs page as "Authorization: （已隐藏）". */
describe('an Authorization label in prose', () => {
  it('keeps the English words that follow it in a sentence', () => {
    expect(redactText('Authorization: must be set')).toBe('Authorization: must be set');
    expect(redactText('error: Authorization: required.')).toBe('error: Authorization: required.');
    expect(redactText('Proxy-Authorization: Required')).toBe('Proxy-Authorization: Required');
    // A password may well be a word: after "password:" a word is still masked.
    expect(redactText('password: hunter')).not.toContain('hunter');
  });

  it('still masks a header value: a scheme and its token, or a bare value that looks like a token', () => {
    expect(redactText('Authorization: Bearer abc123def456ghi789')).not.toContain('abc123def456ghi789');
    expect(redactText('Authorization: Basic dXNlcjpwYXNz')).not.toContain('dXNlcjpwYXNz');
    expect(redactText('Authorization: Token abc')).not.toContain('abc');
    for (const value of ['abc123def456', 'supersecretvalue', 'AbCdEfGh', 'k9', 'ghsecret_x', 'Zm9vYmFy=='])
      expect(redactText(`Authorization: ${value}`), value).toBe('Authorization: …(redacted)');
    expect(redactText('"authorization": "mytoken"')).not.toContain('mytoken"');
  });
});
