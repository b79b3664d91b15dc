import { describe, expect, it } from 'vitest';

import { cleanEndpointUrl, endpointIdentity, sameEndpointAs } from '../../src/shared/endpoint-url';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2VjcmV0';
const URL_ = `wss://api.xiaozhi.me/mcp/?token=${JWT}`;
// The self-hosted relay prints its token URL-quoted (base64: %2B, %2F, %3D), src/server.py's lifespan.
const RELAY = 'ws://192.168.1.5:8004/mcp_endpoint/mcp/?token=25tO2%2B%2Bot20uAGYQUBDxwVzV0D6LHCTIffJCvU7cDWM%3D';

describe('an endpoint URL as people paste it', () => {
  it.each([
    ['quotes around it', `"${URL_}"`, ['quotes']],
    ['a trailing quote (a JSON value copied to its end)', `${URL_}"`, ['quotes']],
    ['a JSON value with its comma', `${URL_}",`, ['quotes', 'punctuation']],
    ['Chinese quotes', `“${URL_}”`, ['quotes']],
    ['single quotes and spaces', `  '${URL_}'  `, ['quotes']],
    ['an environment line', `MCP_ENDPOINT=${URL_}`, ['prefix']],
    ['a shell export with quotes', `export MCP_ENDPOINT="${URL_}"`, ['quotes', 'prefix']],
    ['PowerShell', `$env:MCP_ENDPOINT="${URL_}"`, ['quotes', 'prefix']],
    ['a JSON key and value', `"mcpEndpoint": "${URL_}",`, ['quotes', 'prefix', 'punctuation']],
    ['a Chinese label', `接入点地址：${URL_}`, ['prefix']],

    ['a zero-width space and a BOM', `\uFEFF${URL_}\u200B`, ['invisible']],
    ['a sentence end', `${URL_}。`, ['punctuation']],
  ])('cleans %s', (_what, pasted, removed) => {
    const cleaned = cleanEndpointUrl(pasted);
    expect(cleaned).toEqual({ ok: true, url: URL_, removed: expect.arrayContaining(removed) });
    if (cleaned.ok) expect([...cleaned.removed].sort()).toEqual([...removed].sort());
  });

  it('joins a line a terminal wrapped when a person pastes it, and refuses a line break in a file', () => {
    const wrapped = `${URL_.slice(0, 40)}\n  ${URL_.slice(40)}\n`;
    expect(cleanEndpointUrl(wrapped, { joinLines: true })).toEqual({ ok: true, url: URL_, removed: ['lineBreaks'] });
    // In a config file, `…token=abc\nExecStart=…` is no wrapped address (it would reach a service unit).
    expect(cleanEndpointUrl(wrapped)).toMatchObject({ ok: false, reason: 'spaces' });
  });

  it('keeps an address that needs nothing, the relay’s encoded token untouched', () => {
    expect(cleanEndpointUrl(URL_)).toEqual({ ok: true, url: URL_, removed: [] });
    expect(cleanEndpointUrl(` ${RELAY} `)).toEqual({ ok: true, url: RELAY, removed: [] });
  });

  it.each([
    ['nothing', '  ', 'empty'],
    ['a space inside the token', `wss://api.xiaozhi.me/mcp/?token=eyJh bGci`, 'spaces'],
    ['a note after it', `${URL_} (from the console)`, 'spaces'],
    ['a sentence before it', `my endpoint is ${URL_}`, 'extraText'],
    ['two addresses', `${URL_} ${RELAY}`, 'several'],
    ['the console page', 'https://xiaozhi.me/console/agents', 'scheme'],
    ['no scheme', `api.xiaozhi.me/mcp/?token=${JWT}`, 'scheme'],
  ])('refuses %s with the reason', (_what, pasted, reason) => {
    expect(cleanEndpointUrl(pasted)).toMatchObject({ ok: false, reason });
  });
});

describe('one endpoint, however it is written', () => {
  it('is the host and the token: a slash, case, the default port and quoting do not make another', () => {
    const same = [
      `wss://api.xiaozhi.me/mcp?token=${JWT}`,
      `WSS://API.xiaozhi.me:443/mcp/?token=${JWT}`,
      ` "${URL_}" `,
      `wss://api.xiaozhi.me/mcp/?token=${encodeURIComponent(JWT)}`,
    ];
    for (const url of same) expect(endpointIdentity(url)).toBe(endpointIdentity(URL_));
    // The relay's %2B is the same token as a +.
    expect(endpointIdentity(RELAY.replace(/%2B/g, '+'))).toBe(endpointIdentity(RELAY));
  });

  it('is one host however this machine or DNS names it: localhost, 127.0.0.1, [::1], a trailing dot', () => {
    // A relay on this machine pasted twice, once as the relay printed it and once by hand: one agent, which the two would fight over.
    const local = RELAY.replace('192.168.1.5', '127.0.0.1');
    for (const host of ['localhost', 'LOCALHOST.', '[::1]', '127.0.0.2'])
      expect(endpointIdentity(local.replace('127.0.0.1', host))).toBe(endpointIdentity(local));
    expect(endpointIdentity(`wss://api.xiaozhi.me./mcp/?token=${JWT}`)).toBe(endpointIdentity(URL_));
    // Another port of this machine is another relay.
    expect(endpointIdentity(local.replace(':8004', ':8005'))).not.toBe(endpointIdentity(local));
  });

  it('tells two agents of one relay apart, and names the one that exists', () => {
    const other = RELAY.replace('25tO2', '99xY7');
    expect(endpointIdentity(other)).not.toBe(endpointIdentity(RELAY));
    const endpoints = [
      { id: 'a', name: 'home', url: RELAY },
      { id: 'b', name: 'office', url: URL_ },
    ];
    expect(sameEndpointAs(`${URL_}"`, endpoints)?.name).toBe('office');
    expect(sameEndpointAs(other, endpoints)).toBeUndefined();
    // An endpoint is not its own duplicate (a rename, a change of its URL).
    expect(sameEndpointAs(URL_, endpoints, 'b')).toBeUndefined();
  });
});
