import { describe, expect, it } from 'vitest';

import { callFailureCause } from '../../../../src/main/core/problems/call-failure-cause';

/** What servers answer when their own request fails (the Tavily text is tavily-mcp 0.2's, seen in a real run). */
describe('the cause a failed call names in its text', () => {
  it('no DNS: the site the server could not reach', () => {
    const text =
      'Tavily API error: getaddrinfo ENOTFOUND api.tavily.com\nDocumentation: https://docs.tavily.com/documentation/api-reference/endpoint/search';
    expect(callFailureCause(text)).toEqual({ code: 'net.dns', params: { host: 'api.tavily.com' } });
  });

  it('refused and timed out, with the address named', () => {
    expect(callFailureCause('Error: connect ECONNREFUSED 127.0.0.1:8123')).toMatchObject({
      code: 'net.refused',
      params: { host: '127.0.0.1' },
    });
    expect(callFailureCause('request to https://api.example.com/v1 failed, reason: ETIMEDOUT')).toMatchObject({
      code: 'net.timeout',
      params: { host: 'api.example.com' },
    });
  });

  it('a key refused, or too many requests', () => {
    expect(callFailureCause('Error: Request failed with status code 401')?.code).toBe('http.unauthorized');
    expect(callFailureCause('API error 403 Forbidden: invalid api key')?.code).toBe('http.forbidden');
    expect(callFailureCause('Error: 429 Too Many Requests')?.code).toBe('http.tooMany');
    expect(callFailureCause('Rate limit exceeded, please retry later')?.code).toBe('http.tooMany');
    expect(callFailureCause('Error: Request failed with status code 502')).toEqual({ code: 'http.status', params: { status: 502 } });
  });

  it('the system errors a file server passes on (server-filesystem words them so): missing, no permission, outside its folders', () => {
    expect(callFailureCause("ENOENT: no such file or directory, open '/tmp/home/不存在.txt'")).toEqual({ code: 'fs.notFound', params: {} });
    expect(callFailureCause("Error: EACCES: permission denied, open '/root/x'")).toEqual({ code: 'fs.denied', params: {} });
    expect(callFailureCause("EPERM: operation not permitted, unlink 'C:\\x'")).toEqual({ code: 'fs.denied', params: {} });
    expect(callFailureCause('Error: Access denied - path outside allowed directories: /etc/passwd not in /tmp/home')).toEqual({
      code: 'fs.outside',
      params: {},
    });
    // Its own words when the folder a path is in is gone (walkthrough 5 deleted the allowed folder).
    expect(callFailureCause('Error: Parent directory does not exist: /tmp/home')).toEqual({ code: 'fs.notFound', params: {} });
  });

  it('nothing for a failure it does not know (the raw text alone is shown)', () => {
    expect(callFailureCause('Error: city not found')).toBeUndefined();
    expect(callFailureCause('spawn foo ENOENT')).toBeUndefined();
    expect(callFailureCause('')).toBeUndefined();
  });
});
