import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';

import { FEED_CHECK_AGENT } from '../../src/main/electron/updates/update-feed';

/** A new "AppImage" and its real sha512, as electron-builder writes them into latest-linux.yml. */
export const payload = randomBytes(256 * 1024);
export const sha512 = createHash('sha512').update(payload).digest('base64');
export const FILE = 'xiaozhi-tray-0.2.0-linux-x86_64.AppImage';
export const yml = (version: string, hash = sha512) =>
  [
    `version: ${version}`,
    'files:',
    `  - url: ${FILE}`,
    `    sha512: ${hash}`,
    `    size: ${payload.length}`,
    `path: ${FILE}`,
    `sha512: ${hash}`,
    "releaseDate: '2026-11-01T00:00:00.000Z'",
    '',
  ].join('\n');

export interface Feed {
  url: string;
  /** The paths electron-updater asked for. */
  requests: string[];
  /** The channel files the app's own size check read first. */
  sizeChecks: string[];
  close(): Promise<void>;
}

/**
 * A mirror: every latest*.yml name (latest.yml, latest-mac.yml, latest-linux*.yml) gets `channel`;
 * `reset`: every connection is cut at once, as a filtering firewall does.
 */
export async function startFeed(channel: string | undefined, reset = false): Promise<Feed> {
  const requests: string[] = [];
  const sizeChecks: string[] = [];
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    (req.headers['user-agent'] === FEED_CHECK_AGENT ? sizeChecks : requests).push(pathname);
    if (reset) return void req.socket.destroy();
    if (/^\/feed\/latest[\w-]*\.yml$/.test(pathname) && channel !== undefined)
      res.writeHead(200, { 'Content-Type': 'text/yaml' }).end(channel);
    else if (pathname === `/feed/${FILE}`)
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': payload.length }).end(payload);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/feed`,
    requests,
    sizeChecks,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
