import type { WebContents } from 'electron';

/** What the guards need of a web contents (a seam for tests; Electron's WebContents fits). */
export type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

const isWebLink = (url: string) => /^https?:\/\//i.test(url);
const guarded = new WeakSet<object>();

/**
 * Scheme and host: what an origin is. (Node's URL says "null" for the origin of a scheme it does
 * not know, such as app:, so compare the parts.)
 */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

/** Same page of our own origin (a reload, a hash route): the only navigation a frame may make. */
export function isOwnPage(url: string, pageUrl: string): boolean {
  const origin = originOf(url);
  return origin !== undefined && origin === originOf(pageUrl) && new URL(url).pathname === new URL(pageUrl).pathname;
}

/**
 * Every web contents the app creates is held to its own page: no frame navigates or is redirected
 * elsewhere, no new windows, no <webview>. Links to the web open in the user's browser instead.
 */
export function guardContents(contents: GuardedContents, pageUrl: string, openExternal: (url: string) => void): void {
  // Guarded once, whichever of the window and app-wide 'web-contents-created' comes first.
  if (guarded.has(contents)) return;
  guarded.add(contents);
  contents.on('will-frame-navigate', (details) => {
    if (isOwnPage(details.url, pageUrl)) return;
    details.preventDefault();
    if (details.isMainFrame && isWebLink(details.url)) openExternal(details.url);
  });
  // Our protocol never redirects; a redirect means something else is being loaded.
  contents.on('will-redirect', (details) => {
    if (!isOwnPage(details.url, pageUrl)) details.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
