import { describe, expect, it } from 'vitest';

import { englishText } from '../../../../src/main/core/problems/server-problems';
import { registryUnreachable } from '../../../../src/main/core/servers/registry-failure';

describe('a package runner that could not reach its registry', () => {
  it('reads npm’s DNS failure, with the registry it tried', () => {
    const found = registryUnreachable([
      'npm error code ENOTFOUND',
      'npm error syscall getaddrinfo',
      'npm error errno ENOTFOUND',
      'npm error network request to https://registry.npmjs.org/@modelcontextprotocol%2fserver-memory failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org',
      'npm error network This is a problem related to network connectivity.',
    ]);
    expect(found).toEqual({ code: 'server.registryUnreachable', params: { runner: 'npm', host: 'registry.npmjs.org', reason: 'dns' } });
    expect(englishText(found!)).toContain('choose the mainland China mirror');
  });

  it('reads npm’s certificate and timeout failures', () => {
    expect(
      registryUnreachable([
        'npm error code SELF_SIGNED_CERT_IN_CHAIN',
        'npm error request to https://registry.npmjs.org/x failed, reason: self-signed certificate in certificate chain',
      ])?.params,
    ).toMatchObject({ runner: 'npm', reason: 'tls' });
    expect(registryUnreachable(['npm error code UNABLE_TO_GET_ISSUER_CERT_LOCALLY'])?.params).toMatchObject({
      reason: 'tls',
      host: 'registry.npmjs.org',
    });
    expect(
      registryUnreachable([
        'npm error code ETIMEDOUT',
        'npm error network request to https://registry.npmmirror.com/x failed, reason: connect ETIMEDOUT',
      ])?.params,
    ).toMatchObject({ reason: 'timeout', host: 'registry.npmmirror.com' });
    expect(registryUnreachable(['npm error code ECONNRESET', 'npm error network aborted'])?.params).toMatchObject({ reason: 'reset' });
  });

  it('reads uv’s chain of causes, boxed or not', () => {
    expect(
      registryUnreachable([
        '  × Failed to resolve tool requirement',
        '  ├─▶ Failed to fetch: `https://pypi.org/simple/mcp-server-time/`',
        '  ├─▶ Request failed after 3 retries',
        '  ├─▶ error sending request for url (https://pypi.org/simple/mcp-server-time/)',
        '  ╰─▶ dns error: failed to lookup address information: Name or service not known',
      ]),
    ).toEqual({ code: 'server.registryUnreachable', params: { runner: 'uv', host: 'pypi.org', reason: 'dns' } });
    expect(
      registryUnreachable([
        'error: Failed to fetch: `https://pypi.tuna.tsinghua.edu.cn/simple/x/`',
        '  Caused by: invalid peer certificate: UnknownIssuer',
      ])?.params,
    ).toMatchObject({ runner: 'uv', host: 'pypi.tuna.tsinghua.edu.cn', reason: 'tls' });
  });

  it('leaves a server’s own network errors and other npm errors alone', () => {
    expect(registryUnreachable(['Error: getaddrinfo ENOTFOUND api.example.com', '    at GetAddrInfoReqWrap.onlookup'])).toBeUndefined();
    expect(registryUnreachable(['npm error code E404', "npm error 404  'x@*' is not in this registry."])).toBeUndefined();
  });
});
