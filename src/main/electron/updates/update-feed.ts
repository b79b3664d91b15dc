import type { UpdateSettings } from '../../../shared/settings';

/** The GitHub repository that release.yml publishes to (electron-builder.yml `publish`, checked by a test). */
export const GITHUB_RELEASES = { owner: 'xiaozhi-tray', repo: 'xiaozhi-tray' } as const;

/**
 * A mirror baked in at build time (XIAOZHI_TRAY_UPDATE_MIRROR, see scripts/build.mjs), for builds
 * handed out where GitHub downloads are slow or blocked. Empty: GitHub.
 */
export const BUILD_MIRROR = process.env.XIAOZHI_TRAY_UPDATE_MIRROR || undefined;

export type UpdateFeed =
  | { provider: 'github'; owner: string; repo: string }
  | { provider: 'generic'; url: string };

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

/** A .deb cannot replace itself: its users download the new package by hand, from this page. */
export function manualDownloadUrl(feed: UpdateFeed, version: string, files: { url: string }[]): string {
  const deb = files.find((file) => file.url.endsWith('.deb'));
  if (feed.provider === 'generic' && deb) return new URL(deb.url, `${feed.url}/`).toString();
  return feedPage(feed, version);
}
