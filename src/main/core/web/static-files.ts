import fs from 'node:fs';
import path from 'node:path';

import { own } from '../../../shared/own';

/** The built renderer's files, served alike by the headless web UI and the desktop app's app:// protocol. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export const WEB_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The file under `root` that a URL path names (`/` is index.html), or undefined when it is outside
 * `root`, missing, not a file, or not decodable.
 */
export function staticFileFor(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const base = path.resolve(root);
  const file = path.resolve(base, `.${decoded === '/' ? '/index.html' : decoded}`);
  if (!file.startsWith(base + path.sep)) return undefined;
  try {
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Headers for a served file: its type, the page's CSP, no sniffing; hashed assets are cached for good. */
export function staticHeaders(file: string): Record<string, string> {
  return {
    'Content-Type': own(TYPES, path.extname(file)) ?? 'application/octet-stream',
    'Content-Security-Policy': WEB_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'max-age=31536000, immutable',
  };
}
