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

/** Follows the sign-in page's redirects as a browser would, without one; errors are the sign-in's timeout to say. */
export async function followByFetch(url: string): Promise<void> {
  try {
    const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(60_000) });
    await response.body?.cancel();
  } catch {
    // The listener's timeout reports a sign-in that never came back.
  }
}
