import fs from 'node:fs/promises';

import { staticFileFor, staticHeaders } from '../core/web/static-files';

/** The window's page comes from app://xiaozhi-tray/, never from file:// (Electron's security checklist). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'xiaozhi-tray';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const PAGE_URL = `${APP_ORIGIN}/index.html`;

/** What registering the scheme needs of Electron's `protocol` (a seam for tests). */
export interface SchemeRegistry {
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: Record<string, boolean> }[]): void;
}

/**
 * Must run before the app is ready: a standard, secure scheme gets an origin of its own, so the
 * page's CSP ('self') and the IPC sender check work as for https.
 */
export function registerAppScheme(protocol: SchemeRegistry): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

const plain = (status: number, text: string) => new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

/**
 * Serves the built renderer (`rendererDir`, inside app.asar when packaged) for app://xiaozhi-tray/.
 * Only GET of files under that folder; any other host, method or path is refused.
 */
export function appProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return plain(400, 'Bad request');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return plain(404, 'Not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    const file = staticFileFor(rendererDir, url.pathname);
    if (!file) return plain(404, 'Not found');
    const body = request.method === 'HEAD' ? null : await fs.readFile(file);
    return new Response(body, { status: 200, headers: staticHeaders(file) });
  };
}
