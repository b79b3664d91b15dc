import { randomBytes } from 'node:crypto';

import { extractWWWAuthenticateParams, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { checkResourceAllowed, resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js';

import { type Problem, problem } from '../../../shared/problem';
import type { OAuthSettings } from '../../../shared/settings';
import { loginArgument } from '../../../shared/sign-in-status';
import { isLoopbackHost } from '../io/http-gate';
import { ProblemError } from '../problems/server-problems';
import type { OAuthRecord, TokenVault } from './token-vault';

/**
 * One remote server's side of the SDK's OAuth client (`OAuthClientProvider`): what `auth()` reads
 * and saves, kept in the vault under the server's name. Two modes: `background` (the connection:
 * it may refresh tokens, never asks the user, and stops with "needs sign-in" where a browser would
 * be needed) and `interactive` (a sign-in the user started, with a loopback redirect).
 */

/** A sign-in problem no retry fixes: the server waits for the user (needs sign-in, sign in again, a sign-in server that is not what it says). */
export class OAuthStop extends ProblemError {}

/** What the app tells sign-in servers about itself (dynamic registration, consent screens). */
const CLIENT_NAME = 'Xiaozhi Tray';

/**
 * A client metadata document's URL to use as the client id where the sign-in server accepts one
 * (SEP-991); an https URL where the document is published. Read from the environment only.
 */
export const CLIENT_METADATA_URL_ENV = 'XIAOZHI_TRAY_OAUTH_CLIENT_METADATA_URL';

export type OAuthMode = { kind: 'background' } | { kind: 'interactive'; redirectUrl: string; onAuthorizationUrl: (url: URL) => void };

export interface ServerOAuthOptions {
  server: string;
  serverUrl: string;
  settings: OAuthSettings | undefined;
  vault: TokenVault;
  mode: OAuthMode;
  env?: NodeJS.ProcessEnv;
  /** Background: the connection stops for the user (needs sign-in, sign in again), said before the SDK throws it on. */
  onStop?: (stop: Problem) => void;
}

/** Scopes as a set (space-separated in OAuth). */
const scopes = (text: string | undefined): Set<string> => new Set((text ?? '').split(/\s+/).filter(Boolean));

/** An https URL, or plain http to this machine (a sign-in server for development, the tests' stand-in). */
export function isSecureWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  } catch {
    return false;
  }
}

/** Whether the scopes `held` include every one of `wanted`. */
const covers = (held: string | undefined, wanted: string): boolean => {
  const have = scopes(held);
  return [...scopes(wanted)].every((scope) => have.has(scope));
};

/** Compares issuer URLs as RFC 8414 does (exactly), forgiving only a trailing slash and the URL's spelling. */
export function sameIssuer(a: string, b: string): boolean {
  const norm = (value: string) => {
    try {
      return new URL(value).href.replace(/\/$/, '');
    } catch {
      return value.replace(/\/$/, '');
    }
  };
  return norm(a) === norm(b);
}

/** The resource a protected resource metadata names covers the server's URL (same origin, its path a prefix), as the SDK checks it. */
function resourceMatches(serverUrl: string, resource: string): boolean {
  try {
    return checkResourceAllowed({ requestedResource: resourceUrlFromServerUrl(serverUrl), configuredResource: resource });
  } catch {
    return false;
  }
}

export class ServerOAuth implements OAuthClientProvider {
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  /** A scope the server said a request needs (403 insufficient_scope), while the tokens do not cover it. */
  private stepUpScope: string | undefined;
  /** The tokens were dropped by the sign-in server's refusal (invalid_grant): the sign-in has expired. */
  private tokensRefused = false;
  /** The server's 401 asked for a Bearer token: a 2025-03-26 server may offer sign-in without any metadata. */
  private bearerChallenge = false;

  constructor(private readonly options: ServerOAuthOptions) {}

  get redirectUrl(): string {
    // In the background nothing is redirected; a value is still needed, or the SDK takes it for a machine-to-machine client.
    return this.options.mode.kind === 'interactive' ? this.options.mode.redirectUrl : 'http://127.0.0.1/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.env?.[CLIENT_METADATA_URL_ENV]?.trim() || undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings } = this.options;
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: settings?.clientSecret ? 'client_secret_basic' : 'none',
      ...(settings?.scope ? { scope: settings.scope } : {}),
    };
  }

  /** The `state` of this sign-in: random, checked when the browser comes back. */
  state(): string {
    this.expectedState ??= randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  get sentState(): string | undefined {
    return this.expectedState;
  }

  /** What discovery found (the sign-in server's metadata, for the `iss` check of its answer). */
  get discovered(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { settings, mode } = this.options;
    if (settings) return { client_id: settings.clientId, ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}) };
    const client = (await this.record())?.client as OAuthClientInformationMixed | undefined;
    if (mode.kind === 'background') {
      // Registering needs a redirect only a sign-in has: the user must sign in first.
      if (!client) throw this.stop(problem('server.needsSignIn', { server: loginArgument(this.options.server) }));
      return client;
    }
    // A registration made for another loopback port is not used (a sign-in server may hold clients to their redirect).
    const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    if (client && Array.isArray(uris) && !uris.includes(this.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.options.settings) return;
    await this.update((record) => ({ ...record, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // A sign-in starts afresh (new consent, perhaps wider scopes): stored tokens are not refreshed instead.
    if (this.options.mode.kind === 'interactive') return undefined;
    const tokens = (await this.record())?.tokens as OAuthTokens | undefined;
    // A refresh keeps the scope it was granted: a step-up needs the user, so none is offered to refresh.
    if (tokens?.refresh_token && this.stepUpScope && !covers(tokens.scope, this.stepUpScope)) {
      const { refresh_token: _, ...rest } = tokens;
      return rest;
    }
    return tokens;
  }

  /** Every answer of the server: a 403 insufficient_scope names the wider scope a step-up asks for. */
  observe(response: Response): void {
    if (response.status === 401 && /^\s*bearer\b/i.test(response.headers.get('www-authenticate') ?? '')) this.bearerChallenge = true;
    if (response.status !== 403) return;
    const { error, scope } = extractWWWAuthenticateParams(response);
    if (error === 'insufficient_scope' && scope) this.stepUpScope = scope;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update((record) => {
      const { wantScope: _, ...rest } = record;
      return { ...rest, tokens, savedAt: Date.now() };
    });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const { mode } = this.options;
    if (mode.kind === 'interactive') return mode.onAuthorizationUrl(url);
    const record = await this.record();
    if (this.tokensRefused) throw this.stop(problem('server.signInAgain', { server: loginArgument(this.options.server) }));
    if (record?.tokens) {
      const wanted = [...scopes(url.searchParams.get('scope') ?? undefined)];
      if (!covers(record.tokens.scope as string | undefined, wanted.join(' '))) {
        // Step-up: the server wants more than was granted; the next sign-in asks for it.
        await this.update((r) => ({ ...r, wantScope: wanted.join(' ') }));
        throw this.stop(problem('server.needsSignIn', { server: loginArgument(this.options.server) }));
      }
      // The tokens were not refused, but could not be refreshed (the sign-in server down?): tried again later.
      throw new ProblemError(problem('server.signInFailed', { reason: 'unavailable' }));
    }
    throw this.stop(problem('server.needsSignIn', { server: loginArgument(this.options.server) }));
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new OAuthStop(problem('server.signInFailed', { reason: 'state' }));
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'tokens' || scope === 'all') {
      if ((await this.record())?.tokens) this.tokensRefused = true;
      await this.update(({ tokens: _, savedAt: __, ...rest }) => rest);
    }
    if (scope === 'client' || scope === 'all') await this.update(({ client: _, ...rest }) => rest);
  }

  /**
   * Discovery's result, checked before anything is sent to the sign-in server: its metadata must
   * name the issuer it was fetched for (RFC 8414 §3.3; the SDK leaves this to us). A server of the
   * 2025-03-26 revision has no protected resource metadata: its sign-in server is its own origin,
   * whose metadata may name an issuer under a path of that origin, or which has no metadata at all
   * (then `/authorize`, `/token` and `/register` there). A server with neither document and no
   * Bearer challenge (nor an earlier sign-in) offers no sign-in: its 401 is a refusal, as before.
   */
  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    const metadata = state.authorizationServerMetadata;
    if (!metadata && !state.resourceMetadata && !(await this.mayFallBack())) throw new OAuthStop(this.noOAuth());
    // RFC 9728 §3.3: metadata for another resource is not used (the SDK would say so only later, as an error retried forever).
    const resource = state.resourceMetadata?.resource;
    if (resource !== undefined && !resourceMatches(this.options.serverUrl, String(resource)))
      throw this.stop(problem('server.signInFailed', { reason: 'resource' }));
    if (metadata && !this.issuerMatches(metadata.issuer, state)) throw new OAuthStop(problem('server.signInFailed', { reason: 'issuer' }));
    // OAuth 2.1: codes, tokens and secrets go over https only (plain http to this machine aside); the
    // sign-in page is opened in the system browser, so it must be a web page, not another scheme.
    // The sign-in server's own URL too: without metadata its defaults (/authorize, /token, /register) are on it.
    const endpoints = [
      state.authorizationServerUrl,
      ...(metadata ? [metadata.authorization_endpoint, metadata.token_endpoint, metadata.registration_endpoint] : []),
    ];
    if (endpoints.some((endpoint) => endpoint !== undefined && !isSecureWebUrl(String(endpoint))))
      throw new OAuthStop(problem('server.signInFailed', { reason: 'insecure' }));
    this.discovery = state;
  }

  /** Discovery found no document at all, and the sign-in goes on at the default endpoints of the server's origin. */
  get usesDefaultEndpoints(): boolean {
    return this.discovery !== undefined && !this.discovery.authorizationServerMetadata && !this.discovery.resourceMetadata;
  }

  /**
   * The metadata names the server it was fetched from. Without protected resource metadata (2025-03-26),
   * the sign-in server is the MCP server's own origin by definition: an issuer under a path of that same
   * origin is the same party's, and accepted; another origin never is.
   */
  private issuerMatches(issuer: string, state: OAuthDiscoveryState): boolean {
    if (sameIssuer(issuer, state.authorizationServerUrl)) return true;
    if (state.resourceMetadata) return false;
    try {
      return new URL(issuer).origin === new URL(this.options.serverUrl).origin;
    } catch {
      return false;
    }
  }

  /**
   * Without any metadata a sign-in at the origin's default endpoints is tried when the user asked for
   * it, when the server's 401 asked for a Bearer token, or for a server signed in that way before.
   */
  private async mayFallBack(): Promise<boolean> {
    if (this.options.mode.kind === 'interactive' || this.bearerChallenge) return true;
    const record = await this.record();
    return record?.tokens !== undefined || record?.client !== undefined;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** The scope a step-up asked for, for the next sign-in. */
  async wantedScope(): Promise<string | undefined> {
    return (await this.record())?.wantScope;
  }

  private stop(said: Problem): OAuthStop {
    this.options.onStop?.(said);
    return new OAuthStop(said);
  }

  private noOAuth(): Problem {
    return this.options.mode.kind === 'background'
      ? problem('server.authRefused', { status: 401 })
      : problem('server.signInFailed', { reason: 'noOAuth' });
  }

  /** This server's record, if it was made for its current URL. */
  private async record(): Promise<OAuthRecord | undefined> {
    const record = await this.options.vault.get(this.options.server);
    return record?.serverUrl === this.options.serverUrl ? record : undefined;
  }

  private async update(change: (record: OAuthRecord) => OAuthRecord): Promise<void> {
    const record = (await this.record()) ?? { serverUrl: this.options.serverUrl };
    await this.options.vault.set(this.options.server, change(record));
  }
}
