import type { UpdateSettings } from '../../../shared/settings';

/** The GitHub repository that release.yml publishes to (electron-builder.yml `publish`, checked by a test). */
export const GITHUB_RELEASES = { owner: 'xiaozhi-tray', repo: 'xiaozhi-tray' } as const;

/**
 * A mirror baked in at build time (XIAOZHI_TRAY_UPDATE_MIRROR, see scripts/build.mjs), for builds
 * handed out where GitHub downloads are slow or blocked. Empty: GitHub.
 */
export const BUILD_MIRROR = process.env.XIAOZHI_TRAY_UPDATE_MIRROR || undefined;

export type UpdateFeed = { provider: 'github'; owner: string; repo: string } | { provider: 'generic'; url: string };

/** The user's mirror, else the build's, else the GitHub releases. */
export function updateFeed(settings: UpdateSettings, buildMirror: string | undefined = BUILD_MIRROR): UpdateFeed {
  const mirror = settings.mirrorUrl ?? buildMirror;
  if (mirror) return { provider: 'generic', url: mirror.replace(/\/+$/, '') };
  return { provider: 'github', ...GITHUB_RELEASES };
}

/** Where a person finds the feed's files (shown in Settings, opened for a .deb update). */
export function feedPage(feed: UpdateFeed, version?: string): string {
  if (feed.provider === 'generic') return `${feed.url}/`;
  const base = `https://github.com/${feed.owner}/${feed.repo}/releases`;
  return version ? `${base}/tag/v${version}` : base;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A link the app may open in the browser for a download: https, or http on this machine (a test's
 * mirror). Never file:, smb: or another scheme the system would hand to a file manager or a share.
 */
export function isSafeDownloadUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname));
}

/**
 * A .deb cannot replace itself: its users download the new package by hand, from this page. The
 * feed names the package: a path on the mirror, or a link that must be safe to open (else the
 * mirror's page is given instead); a protocol-relative `//host/…` is not taken.
 */
export function manualDownloadUrl(feed: UpdateFeed, version: string, files: { url: string }[]): string {
  const deb = files.find((file) => typeof file.url === 'string' && file.url.endsWith('.deb'));
  if (feed.provider === 'generic' && deb && !/^[\\/]{2}/.test(deb.url)) {
    try {
      const url = new URL(deb.url, `${feed.url}/`).toString();
      if (isSafeDownloadUrl(url)) return url;
    } catch {
      // Not a URL: the mirror's page instead.
    }
  }
  return feedPage(feed, version);
}

/** Our own look at a feed file says who it is (a mirror's logs, and the tests, tell it from the updater's). */
export const FEED_CHECK_AGENT = 'Xiaozhi Tray (update feed size check)';

/** latest*.yml is a few hundred bytes; a feed far larger is refused before electron-updater reads it whole. */
export const MAX_FEED_FILE_BYTES = 1024 * 1024;

/** The channel file electron-updater reads for this platform (its Provider's naming). */
export function channelFileName(platform: NodeJS.Platform, arch: string): string {
  if (platform === 'linux') return `latest-linux${arch === 'x64' ? '' : `-${arch}`}.yml`;
  return platform === 'darwin' ? 'latest-mac.yml' : 'latest.yml';
}

/**
 * Reads at most MAX_FEED_FILE_BYTES of a mirror's channel file and throws when there is more:
 * electron-updater's http executor (which has no limit) would gather it all into one string (300
 * MB crashed the app). Any other failure is left to electron-updater's own request to report.
 */
export async function checkFeedFileSize(url: string, timeoutMs = 30_000): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'follow',
      headers: { 'User-Agent': FEED_CHECK_AGENT },
    });
  } catch {
    return;
  }
  const tooLarge = () =>
    Object.assign(new Error(`the update file ${url} is larger than ${MAX_FEED_FILE_BYTES / 1024 / 1024} MB: not an update feed`), {
      code: 'ERR_UPDATER_INVALID_UPDATE_INFO',
    });
  const reader = response.body?.getReader();
  try {
    if (!response.ok) return;
    if (Number(response.headers.get('content-length')) > MAX_FEED_FILE_BYTES) throw tooLarge();
    for (let size = 0; reader;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        // Cut off or stalled (the timeout): electron-updater's own request reports it.
        return;
      }
      const { done, value } = chunk;
      if (done) return;
      size += value.byteLength;
      if (size > MAX_FEED_FILE_BYTES) throw tooLarge();
    }
  } finally {
    await reader?.cancel().catch(() => undefined);
  }
}
