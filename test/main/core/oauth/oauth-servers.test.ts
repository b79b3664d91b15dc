import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { logLineText } from '../../../../src/cli/cli-words';
import { FileVault, TOKENS_FILE_NAME } from '../../../../src/main/core/oauth/token-vault';
import { translator } from '../../../../src/shared/i18n/translate';
import { logMessage } from '../../../../src/shared/problem-words';
import { type Harness, logText, makeBridge } from '../../../helpers/bridge-harness';
import { type OAuthStandIn, type OAuthStandInOptions, startOAuthStandIn } from '../../../helpers/oauth-stand-in';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

const tempDir = tempDirs('xt-oauth-');
let harness: Harness | undefined;
let standIn: OAuthStandIn | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  await standIn?.close();
  standIn = undefined;
});

const supervision = { restartBaseMs: 50, restartMaxMs: 100, healthIntervalMs: 0, startTimeoutMs: 10_000, stopGraceMs: 500 };
const server = () => harness!.bridge.state().servers[0]!;

/** A bridge with one remote server behind the stand-in; sign-in pages are followed by fetch (the test seam). */
async function setUp(
  options: OAuthStandInOptions = {},
  oauth?: { clientId: string; clientSecret?: string },
  env: NodeJS.ProcessEnv = {},
  transport: 'sse' | 'streamable-http' = 'streamable-http',
) {
  standIn = await startOAuthStandIn(options);
  const dir = tempDir();
  const url = transport === 'sse' ? standIn.sseUrl : standIn.url;
  harness = makeBridge({ servers: [{ name: 'cloud', transport, url, ...(oauth ? { oauth } : {}) }] }, supervision, {
    env: { ...process.env, XIAOZHI_TRAY_OAUTH_OPEN: 'fetch', ...env },
    oauthVault: new FileVault(dir),
    signInTimeoutMs: 10_000,
  });
  harness.bridge.start();
  return { dir, file: path.join(dir, TOKENS_FILE_NAME) };
}

async function signIn() {
  const answer = await harness!.bridge.api.signIn({ name: 'cloud' });
  if ('problem' in answer) throw new Error(`the sign-in did not start: ${JSON.stringify(answer.problem)}`);
  await waitFor(
    () => server().state === 'running',
    10_000,
    () => `the server to run after sign-in (${JSON.stringify(server())})`,
  );
  return answer;
}

/** No token, code or verifier the stand-in handed out or saw appears in the logs or the state. */
function expectNoSecrets() {
  const said = `${logText(harness!.logBook)}\n${JSON.stringify(harness!.logBook.entries())}\n${JSON.stringify(harness!.bridge.state())}`;
  expect(standIn!.secrets.length).toBeGreaterThan(0);
  for (const secret of standIn!.secrets) expect(said).not.toContain(secret);
}

describe('remote servers that need sign-in (OAuth 2.1)', () => {
  it('waits for sign-in, then discovers, registers, authorizes with PKCE, gets tokens, connects; tokens kept 0600', async () => {
    const { file } = await setUp();
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    expect(server().lastErrorCause).toEqual({ code: 'server.needsSignIn', params: { server: 'cloud' } });
    expect(server().lastError).toBe('this server needs you to sign in');
    expect(server().restarts).toBe(0);

    const answer = await signIn();
    expect(answer.opened).toBe(true);
    const url = new URL(answer.url);
    expect(url.origin + url.pathname).toBe(`${standIn!.base}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('resource')).toBe(standIn!.url);
    expect(url.searchParams.get('scope')).toBe('mcp:read');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(standIn!.requests).toEqual(
      expect.arrayContaining([
        'GET /.well-known/oauth-protected-resource/mcp',
        'GET /.well-known/oauth-authorization-server',
        'POST /register',
        'GET /authorize',
        'POST /token',
      ]),
    );
    const call = await harness!.bridge.api.callTool({ name: 'whoami', arguments: {} });
    expect(call.text).toMatch(/^whoami as client-/);
    // Said in the window's language (walkthrough 4: the app's English lines in the Chinese log).
    const signedIn = harness!.logBook.entries().find((e) => e.message === 'signed in to "cloud"')!;
    expect(logMessage(translator('zh-CN'), signedIn)).toBe('已登录服务“cloud”');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toContain('refresh_token');
    expectNoSecrets();
  });

  it('refreshes an expired access token without asking the user', async () => {
    await setUp({ expiresIn: 3600 });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    await signIn();
    const tokens = standIn!.requests.filter((r) => r === 'POST /token').length;
    standIn!.expireAccessTokens();
    await harness!.bridge.api.restartServer({ name: 'cloud' });
    expect(server().state).toBe('running');
    expect(standIn!.requests.filter((r) => r === 'POST /token').length).toBe(tokens + 1);
    // And during a session: the call's 401 is answered by a refresh, the call goes through.
    standIn!.expireAccessTokens();
    const call = await harness!.bridge.api.callTool({ name: 'whoami', arguments: {} });
    expect(call.isError).toBe(false);
    expect(standIn!.requests.filter((r) => r === 'POST /token').length).toBe(tokens + 2);
    expectNoSecrets();
  });

  it('a refresh the sign-in server refuses says "sign in again", once, and is not retried; signing in again connects', async () => {
    await setUp();
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    await signIn();
    standIn!.refuseRefresh();
    standIn!.expireAccessTokens();
    await harness!.bridge.api.restartServer({ name: 'cloud' });
    expect(server().state).toBe('failed');
    expect(server().lastErrorCause).toEqual({ code: 'server.signInAgain', params: { server: 'cloud' } });
    expect(server().restarts).toBe(0);
    const said = harness!.logBook.entries().filter((e) => e.level !== 'debug' && /sign-in to this server has expired/.test(e.message));
    expect(said).toHaveLength(1);
    await signIn();
    expectNoSecrets();
  });

  it('the log says a sign-in to wait for once, and what to do once, in both languages: a warning, not "not retrying"', async () => {
    await setUp();
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    const entries = harness!.logBook
      .entries()
      .filter((e) => e.level !== 'debug' && (e.problem?.code === 'server.needsSignIn' || /sign in/i.test(e.message)));
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect(entry.level).toBe('warn');
    expect(logLineText({ language: 'en', t: translator('en') }, entry)).toBe(
      'this server needs you to sign in — Press Sign in: your browser opens the sign-in page; once you are signed in, the server connects. Headless: run xiaozhi-tray login cloud.',
    );
    expect(logLineText({ language: 'zh-CN', t: translator('zh-CN') }, entry)).toBe(
      '该服务需要先登录。（请点击“登录”：浏览器会打开登录页面，登录完成后服务会自动连接。无界面运行时：执行 xiaozhi-tray login cloud。）',
    );
  });

  it('a refresh that fails because the sign-in server is down is retried with backoff, not "sign in again"', async () => {
    await setUp();
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    await signIn();
    standIn!.tokenEndpointDown(true);
    standIn!.expireAccessTokens();
    void harness!.bridge.api.restartServer({ name: 'cloud' });
    await waitFor(() => server().restarts >= 1, 10_000, 'a retry');
    expect(server().state).not.toBe('failed');
    expect(server().lastErrorCause).toEqual({ code: 'server.signInFailed', params: { reason: 'unavailable' } });
    // Said as a server that is down for a while, which is retried: not "refused", not "press Sign in".
    const said = logLineText(
      { language: 'en', t: translator('en') },
      harness!.logBook.entries().find((e) => e.cause?.code === 'server.signInFailed')!,
    );
    expect(said).toMatch(
      /^sign-in failed: the sign-in could not be renewed: the sign-in server did not answer as it should \(down for a while\?\); restarting in [\d.]+ s — It is tried again by itself: nothing to do unless this goes on\.$/,
    );
    standIn!.tokenEndpointDown(false);
    await waitFor(() => server().state === 'running', 10_000, 'the server to connect once the sign-in server is back');
  });

  it('a call that needs a wider scope (403 insufficient_scope) asks for sign-in with that scope, then works', async () => {
    await setUp({ toolScopes: { admin: 'mcp:admin' } });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    await signIn();
    const refused = await harness!.bridge.api.callTool({ name: 'admin', arguments: {} });
    expect(refused.isError).toBe(true);
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for a wider sign-in');
    expect(server().lastErrorCause?.code).toBe('server.needsSignIn');
    const answer = await signIn();
    expect(new URL(answer.url).searchParams.get('scope')?.split(' ')).toContain('mcp:admin');
    const call = await harness!.bridge.api.callTool({ name: 'admin', arguments: {} });
    expect(call.text).toMatch(/^admin as /);
  });

  it('refuses a sign-in server whose metadata names another issuer, before registering', async () => {
    await setUp({ metadataIssuer: () => 'https://evil.example' });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    expect(await harness!.bridge.api.signIn({ name: 'cloud' })).toEqual({
      problem: { code: 'server.signInFailed', params: { reason: 'issuer' } },
    });
    expect(standIn!.requests).not.toContain('POST /register');
    expect(standIn!.requests).not.toContain('GET /authorize');
  });

  it('refuses an authorization answer whose iss is another server (RFC 9207): no token is asked for', async () => {
    await setUp({ answerIssuer: () => 'https://evil.example' });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    await harness!.bridge.api.signIn({ name: 'cloud' });
    await waitFor(() => /issuer mismatch/.test(logText(harness!.logBook)), 10_000, 'the refusal to be logged');
    expect(standIn!.requests).not.toContain('POST /token');
    expect(server().state).toBe('failed');
  });

  it('signs in with a client registered by hand (oauth.clientId/clientSecret), without registering; the secret is never said', async () => {
    await setUp(
      { noRegistration: true, clients: { 'hand-made': 's3cret-client-value' } },
      { clientId: 'hand-made', clientSecret: 's3cret-client-value' },
    );
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    await signIn();
    expect(standIn!.requests).not.toContain('POST /register');
    const call = await harness!.bridge.api.callTool({ name: 'whoami', arguments: {} });
    expect(call.text).toBe('whoami as hand-made');
    expect(JSON.stringify(await harness!.bridge.api.getSettings())).not.toContain('s3cret-client-value');
    expect(logText(harness!.logBook)).not.toContain('s3cret-client-value');
  });

  it('finds a sign-in server that publishes only an OpenID configuration', async () => {
    await setUp({ openIdOnly: true });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    await signIn();
    expect(standIn!.requests).toContain('GET /.well-known/openid-configuration');
  });

  it('uses a client metadata document as its client id where the sign-in server accepts one, without registering', async () => {
    const document = 'https://client.example/xiaozhi-tray.json';
    await setUp({ clientMetadataDocuments: true }, undefined, { XIAOZHI_TRAY_OAUTH_CLIENT_METADATA_URL: document });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    const answer = await signIn();
    expect(new URL(answer.url).searchParams.get('client_id')).toBe(document);
    expect(standIn!.requests).not.toContain('POST /register');
    expect((await harness!.bridge.api.callTool({ name: 'whoami', arguments: {} })).text).toBe(`whoami as ${document}`);
  });

  it('signs in to an SSE server the same way', async () => {
    await setUp({}, undefined, {}, 'sse');
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    expect(server().lastErrorCause?.code).toBe('server.needsSignIn');
    const answer = await signIn();
    expect(new URL(answer.url).searchParams.get('resource')).toBe(standIn!.sseUrl);
    expect((await harness!.bridge.api.callTool({ name: 'whoami', arguments: {} })).text).toMatch(/^whoami as client-/);
    expectNoSecrets();
  });
});

describe('remote servers of the 2025-03-26 revision (no protected resource metadata)', () => {
  it('sign in with the sign-in server metadata at their origin, whose issuer is under a path of it', async () => {
    await setUp({ noResourceMetadata: true, routePrefix: '/oauth' });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    expect(server().lastErrorCause?.code).toBe('server.needsSignIn');
    const answer = await signIn();
    expect(new URL(answer.url).pathname).toBe('/oauth/authorize');
    expect(standIn!.requests).toEqual(
      expect.arrayContaining(['GET /.well-known/oauth-authorization-server', 'POST /oauth/register', 'POST /oauth/token']),
    );
    expect((await harness!.bridge.api.callTool({ name: 'whoami', arguments: {} })).text).toMatch(/^whoami as client-/);
    expectNoSecrets();
  });

  it('sign in at the default /authorize, /token and /register of their origin when there is no metadata at all, and refresh there', async () => {
    await setUp({ noResourceMetadata: true, noAuthorizationMetadata: true });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    expect(server().lastErrorCause?.code).toBe('server.needsSignIn');
    const answer = await signIn();
    expect(`${new URL(answer.url).origin}${new URL(answer.url).pathname}`).toBe(`${standIn!.base}/authorize`);
    expect(standIn!.requests).toEqual(expect.arrayContaining(['POST /register', 'POST /token']));
    const tokens = standIn!.requests.filter((r) => r === 'POST /token').length;
    standIn!.expireAccessTokens();
    expect((await harness!.bridge.api.callTool({ name: 'whoami', arguments: {} })).isError).toBe(false);
    expect(standIn!.requests.filter((r) => r === 'POST /token').length).toBeGreaterThan(tokens);
  });

  it('still refuse metadata at their origin naming an issuer on another origin', async () => {
    await setUp({ noResourceMetadata: true, metadataIssuer: () => 'https://evil.example/oauth' });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    expect(await harness!.bridge.api.signIn({ name: 'cloud' })).toEqual({
      problem: { code: 'server.signInFailed', params: { reason: 'issuer' } },
    });
    expect(standIn!.requests).not.toContain('POST /register');
  });

  it('a server with no metadata whose defaults are not there either: the sign-in says it offers none', async () => {
    await setUp({ noResourceMetadata: true, noAuthorizationMetadata: true, noRegistration: true });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    expect(await harness!.bridge.api.signIn({ name: 'cloud' })).toEqual({
      problem: { code: 'server.signInFailed', params: { reason: 'noOAuth' } },
    });
  });
});

describe('XIAOZHI_TRAY_OAUTH_OPEN=auto (the conformance client: nobody to press Sign in)', () => {
  it('signs in by itself as soon as a server needs it, and connects', async () => {
    await setUp({}, undefined, { XIAOZHI_TRAY_OAUTH_OPEN: 'auto' });
    await waitFor(
      () => server().state === 'running',
      10_000,
      () => `the server to sign in by itself (${JSON.stringify(server())})`,
    );
    expect(standIn!.requests.filter((r) => r === 'GET /authorize')).toHaveLength(1);
    expect((await harness!.bridge.api.callTool({ name: 'whoami', arguments: {} })).isError).toBe(false);
  });

  it('is not honoured for any other value: the server waits for the user', async () => {
    await setUp({}, undefined, { XIAOZHI_TRAY_OAUTH_OPEN: 'yes' });
    await waitFor(() => server().state === 'failed', 5000, 'the server to wait for sign-in');
    await harness!.bridge.whenServersSettled();
    expect(standIn!.requests).not.toContain('GET /authorize');
  });
});
