import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

import { type Problem, problem } from '../../../shared/problem';
import type { RemoteServerSettings } from '../../../shared/settings';
import { boundedFetch } from '../io/bounded-fetch';
import { remoteHeaders } from '../io/remote-headers';
import { ProblemError } from '../problems/server-problems';
import { CLIENT_INFO } from '../system/client-info';
import { listenForRedirect } from './loopback-redirect';
import { OAuthStop, sameIssuer, ServerOAuth } from './server-oauth';
import { type TokenVault, VaultRefused, VaultTooBig } from './token-vault';

/**
 * A sign-in the user started (the window's Sign in button, `xiaozhi-tray login`): the server's
 * challenge, discovery, registration, the authorization URL with PKCE and `state`, then, once the
 * browser comes back to the loopback listener, the `state` and `iss` checks and the token exchange.
 * Nothing secret (codes, verifiers, tokens) is said anywhere: failures are problems with a reason.
 */

/** How long the browser may take to come back (a user reading a consent page, typing a password). */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** How long the server's first answer (its challenge), and each answer of its sign-in server, may take. */
const PROBE_TIMEOUT_MS = 15_000;
/** The most a sign-in server's answer (metadata, registration, tokens) may hold: a few kilobytes are usual. */
export const MAX_OAUTH_ANSWER_BYTES = 256 * 1024;

/**
 * The sign-in's requests (discovery, registration, token exchange), each bounded in time and size:
 * a stuck or hostile sign-in server must neither hold the Sign in button forever nor fill memory.
 */
function signInFetch(timeoutMs: number): FetchLike {
  const bounded = boundedFetch(MAX_OAUTH_ANSWER_BYTES, () => undefined);
  return (url, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    return bounded(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
  };
}

export interface SignInOptions {
  settings: RemoteServerSettings;
  vault: TokenVault;
  env?: NodeJS.ProcessEnv;
  modelscopeApiKey?: string | undefined;
  timeoutMs?: number;
}

export interface SignIn {
  /** The sign-in page to open in a browser. */
  url: string;
  /** Resolves once the tokens are saved; rejects with an `OAuthStop` saying why not. */
  done: Promise<void>;
  /** Gives up (a newer sign-in of the same server, the app stopping). */
  cancel(): void;
}

/** Why a sign-in failed, as a problem (never an error's own text: it may quote a server's answer). */
export function signInProblem(error: unknown): Problem {
  if (error instanceof ProblemError) return error.problem;
  if (error instanceof VaultTooBig) return problem('server.signInFailed', { reason: 'failed' });
  if (error instanceof VaultRefused) return problem('server.signInFailed', { reason: 'storage' });
  const text = error instanceof Error ? error.message : '';
  if (/dynamic client registration/i.test(text)) return problem('server.signInFailed', { reason: 'noRegistration' });
  return problem('server.signInFailed', { reason: 'failed' });
}

export async function startSignIn(options: SignInOptions): Promise<SignIn> {
  const { settings, vault } = options;
  const serverUrl = new URL(settings.url);
  const challenge = await probe(settings, options.modelscopeApiKey);
  const redirect = await listenForRedirect(options.timeoutMs ?? SIGN_IN_TIMEOUT_MS);
  let authorizationUrl: URL | undefined;
  const provider = new ServerOAuth({
    server: settings.name,
    serverUrl: settings.url,
    settings: settings.oauth,
    vault,
    env: options.env ?? process.env,
    mode: { kind: 'interactive', redirectUrl: redirect.url, onAuthorizationUrl: (url) => (authorizationUrl = url) },
  });
  // A step-up the connection met asks for its wider scope; else what the server's challenge says.
  const scope = (await provider.wantedScope()) ?? challenge.scope;
  const flow = {
    serverUrl,
    fetchFn: signInFetch(Math.min(PROBE_TIMEOUT_MS, options.timeoutMs ?? SIGN_IN_TIMEOUT_MS)),
    ...(scope ? { scope } : {}),
    ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
  };
  try {
    await auth(provider, flow);
  } catch (error) {
    redirect.close();
    // No metadata, and its origin's default /register or /authorize is not there either: no sign-in is offered.
    const noOAuth = provider.usesDefaultEndpoints && !(error instanceof ProblemError);
    throw new OAuthStop(noOAuth ? problem('server.signInFailed', { reason: 'noOAuth' }) : signInProblem(error));
  }
  if (!authorizationUrl) {
    redirect.close();
    throw new OAuthStop(problem('server.signInFailed', { reason: 'failed' }));
  }
  const answered = redirect.answer(() => provider.sentState);
  const done = answered.then(async (answer) => {
    if (answer.error !== undefined || answer.code === undefined) throw new OAuthStop(problem('server.signInFailed', { reason: 'denied' }));
    // RFC 9207: the answer names who sent it; a mix-up attacker's server would name itself.
    const metadata = provider.discovered?.authorizationServerMetadata as
      { issuer: string; authorization_response_iss_parameter_supported?: boolean } | undefined;
    const issuerRequired = metadata?.authorization_response_iss_parameter_supported === true;
    if (answer.iss !== undefined ? !metadata || !sameIssuer(answer.iss, metadata.issuer) : issuerRequired)
      throw new OAuthStop(problem('server.signInFailed', { reason: 'issuer' }));
    try {
      await auth(provider, { ...flow, authorizationCode: answer.code });
    } catch (error) {
      throw new OAuthStop(signInProblem(error));
    }
  });
  return { url: authorizationUrl.href, done, cancel: () => redirect.close() };
}

/** The server's challenge to a request without a token: where its metadata is, and the scope it wants. */
async function probe(
  settings: RemoteServerSettings,
  modelscopeApiKey: string | undefined,
): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const url = new URL(settings.url);
  const headers: Record<string, string> = { ...remoteHeaders(url, settings.headers, modelscopeApiKey) };
  let init: RequestInit;
  if (settings.transport === 'sse') init = { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } };
  else
    init = {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
      }),
    };
  try {
    const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
  } catch {
    // Unreachable now: discovery says so in its own words, below.
    return {};
  }
}
