import { describe, expect, it } from 'vitest';

import { isSecureWebUrl, sameIssuer, ServerOAuth } from '../../../../src/main/core/oauth/server-oauth';
import { MemoryVault } from '../../../../src/main/core/oauth/token-vault';

const provider = () =>
  new ServerOAuth({
    server: 'cloud',
    serverUrl: 'https://mcp.example/mcp',
    settings: undefined,
    vault: new MemoryVault(),
    mode: { kind: 'background' },
  });

const metadata = (endpoints: Record<string, string | undefined>) => ({
  issuer: 'https://auth.example',
  authorization_endpoint: 'https://auth.example/authorize',
  token_endpoint: 'https://auth.example/token',
  response_types_supported: ['code'],
  ...endpoints,
});

describe('what discovery found, checked before anything is sent to the sign-in server', () => {
  it('refuses endpoints that are not https (plain http only on this machine), and a sign-in page of another scheme', async () => {
    for (const bad of [
      { token_endpoint: 'http://auth.example/token' },
      { authorization_endpoint: 'file:///etc/passwd' },
      { registration_endpoint: 'http://10.0.0.1/register' },
    ]) {
      await expect(
        provider().saveDiscoveryState({
          authorizationServerUrl: 'https://auth.example',
          authorizationServerMetadata: metadata(bad) as never,
        }),
      ).rejects.toThrow(/does not use https/);
    }
    await expect(
      provider().saveDiscoveryState({ authorizationServerUrl: 'https://auth.example', authorizationServerMetadata: metadata({}) as never }),
    ).resolves.toBeUndefined();
    expect(isSecureWebUrl('http://127.0.0.1:8080/token')).toBe(true);
    expect(isSecureWebUrl('http://localhost/token')).toBe(true);
    expect(isSecureWebUrl('javascript:alert(1)')).toBe(false);
  });

  it('compares issuers exactly, forgiving only a trailing slash', () => {
    expect(sameIssuer('https://auth.example', 'https://auth.example/')).toBe(true);
    expect(sameIssuer('https://auth.example/tenant', 'https://auth.example')).toBe(false);
    expect(sameIssuer('https://auth.example.evil', 'https://auth.example')).toBe(false);
  });

  it('a server with no OAuth metadata at all and no Bearer challenge keeps its 401 as a refusal (as before sign-in existed)', async () => {
    await expect(provider().saveDiscoveryState({ authorizationServerUrl: 'https://mcp.example/' })).rejects.toThrow(
      /refused the credentials \(HTTP 401\)/,
    );
  });
});
