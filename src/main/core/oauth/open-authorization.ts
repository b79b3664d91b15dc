/**
 * How a sign-in page is opened. `XIAOZHI_TRAY_OAUTH_OPEN=fetch` (tests, the conformance suite's
 * client, whose sign-in server approves at once): no browser, the page is fetched with a plain GET
 * and its redirects followed back to our loopback listener. `=auto` does the same, and starts the
 * sign-in by itself whenever a server needs one (nobody to press Sign in). Honoured only when set
 * to exactly one of those.
 */
export const OAUTH_OPEN_ENV = 'XIAOZHI_TRAY_OAUTH_OPEN';

export const opensByFetch = (env: NodeJS.ProcessEnv): boolean => env[OAUTH_OPEN_ENV] === 'fetch' || signsInByItself(env);

export const signsInByItself = (env: NodeJS.ProcessEnv): boolean => env[OAUTH_OPEN_ENV] === 'auto';

/** How many redirects a followed sign-in page may take (a browser stops near 20). */
const MAX_REDIRECTS = 10;

/**
 * Follows the sign-in page's redirects as a browser would, without one, but only within the sign-in
 * server's site and to this sign-in's own redirect (its `redirect_uri`): a hostile sign-in server must
 * not make the app GET anything else (another local port, another site). Errors are the sign-in's
 * timeout to say.
 */
export async function followByFetch(url: string): Promise<void> {
  let at: URL;
  let callback: URL;
  try {
    at = new URL(url);
    callback = new URL(at.searchParams.get('redirect_uri') ?? '');
  } catch {
    return;
  }
  const origin = at.origin;
  const allowed = (target: URL) => target.origin === origin || (target.origin === callback.origin && target.pathname === callback.pathname);
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await fetch(at, { redirect: 'manual', signal: AbortSignal.timeout(60_000) });
      await response.body?.cancel();
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location === null) return;
      const next = new URL(location, at);
      if (!allowed(next)) return;
      at = next;
    }
  } catch {
    // The listener's timeout reports a sign-in that never came back.
  }
}
