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

/** What a hostile or careless server may print: none of it may reach the Logs page, History or the model. */
describe('a header value that reads like a word or a sentence', () => {
  it('masks a password-like word after Authorization: only words prose puts there are kept', () => {
    for (const value of ['changeme', 'letmein', 'Hunter', 'secret', 'opensesame'])
      expect(redactText(`Authorization: ${value}`), value).toBe('Authorization: …(redacted)');
    expect(redactText('Authorization: missing')).toBe('Authorization: missing');
    expect(redactText('the Authorization: header is invalid')).toBe('the Authorization: header is invalid');
  });

  it('masks the credentials after a scheme it does not know (Digest, AWS, ApiKey, Key, Negotiate), to the end of the line', () => {
    for (const line of [
      'Authorization: ApiKey abcdef',
      'Authorization: Key abc123',
      'authorization : Negotiate YIIabc',
      'Authorization: Digest username="a", response="6629fae49393a05397450978507c4ef1"',
      'Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830, Signature=5d672d79c15b13162d9279b0855cfba6',
    ])
      for (const secret of ['abcdef', 'abc123', 'YIIabc', '6629fae4', '5d672d79', 'AKIDEXAMPLE'])
        expect(redactText(line), line).not.toContain(secret);
    // A JSON value ends at its quote: what follows it is not the header's.
    expect(redactText('{"Authorization": "Key abc123", "Accept": "json"}')).toBe('{"Authorization": "…(redacted)", "Accept": "json"}');
    expect(redactText('{"Authorization":"Bearer abcdefgh1","Cookie":"sid=zzzyyyxxx222"}')).toBe(
      '{"Authorization":"Bearer …(redacted)","Cookie":"…(redacted)"}',
    );
  });

  it('masks cookies, token headers and NAME_API_KEY= assignments a server echoes', () => {
    const lines = [
      'Cookie: sessionid=abc123def456; csrftoken=zzzyyyxxx111',
      'Set-Cookie: sid=s%3Aabcdef123456.sig; Path=/; HttpOnly',
      'X-Auth-Token: abcdef123456',
      'private-token: abcdef123457',
      'Ocp-Apim-Subscription-Key: 0123456789abcdef',
      'OPENAI_API_KEY=abcd1234efgh',
      'HA_TOKEN=abcdef123458',
      'auth_token: abcdef123459',
    ];
    const out = redactText(lines.join('\n'));
    for (const secret of [
      'abc123def456',
      'zzzyyyxxx111',
      'abcdef123456',
      'abcdef123457',
      '0123456789abcdef',
      'abcd1234efgh',
      'abcdef123458',
      'abcdef123459',
    ])
      expect(out, secret).not.toContain(secret);
    // Counts that merely look like names of secrets stay.
    expect(redactText('max_tokens=4096 tokens: 500')).toBe('max_tokens=4096 tokens: 500');
    expect(redactText('each app now has its own token: choose it again')).toBe('each app now has its own token: choose it again');
  });

  it('masks an Authorization header written percent-encoded (a URL or a form that carries headers)', () => {
    expect(redactText('headers=%7B%22Authorization%22%3A%22Bearer%20abc123xyz%22%7D')).not.toContain('abc123xyz');
    expect(redactText('h=Authorization%3A%20secretvalue')).not.toContain('secretvalue');
  });
});
