import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';

import { isDownloadUrl } from '../../../shared/mirrors';

/**
 * A download that did not complete, in words the status can carry (no URL credentials: sources
 * cannot hold any). `kind` says why where it is one the user is told in their language: more bytes
 * than the file can be ('tooBig'), or too few for too long ('tooSlow').
 */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly kind?: 'tooBig' | 'tooSlow',
  ) {
    super(message);
  }
}

export interface DownloadOptions {
  /** The most bytes the file can be (its pinned size): a source sending more is stopped there. */
  maxBytes: number;
  /** Bytes on disk so far, and the whole size when it is known. */
  onProgress?: (received: number, total: number | undefined) => void;
  /** A connection that brings less than PROGRESS_BYTES this long is dropped (the part kept stays for the next try). */
  idleTimeoutMs?: number;
}

const DEFAULT_IDLE_MS = 30_000;
/**
 * What a connection must bring within each idle period to be kept: a body that trickles a byte at
 * a time (a slow-loris) is dropped as surely as one that sends nothing. 16 KiB in 30 s is far below
 * any connection a runtime can be fetched over.
 */
export const PROGRESS_BYTES = 16 * 1024;

/**
 * Downloads `url` to `dest`, through `dest.part`: a download cut off (the network, the app quit)
 * leaves the part, and the next call asks only for the rest (HTTP Range). A server that ignores
 * the range sends the whole file again, which replaces the part. `dest` appears only once whole.
 * A download that goes past `maxBytes` can never be the file: it is stopped and its part deleted.
 */
export async function downloadFile(url: string, dest: string, options: DownloadOptions, retried = false): Promise<void> {
  const part = `${dest}.part`;
  const { maxBytes } = options;
  let have = sizeOf(part);
  if (have > maxBytes) {
    fs.rmSync(part, { force: true });
    have = 0;
  }
  const progress = progressWatch(url, options.idleTimeoutMs ?? DEFAULT_IDLE_MS);
  try {
    let response: Response;
    try {
      ({ response } = await fetchFollowing(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, signal: progress.signal }));
    } catch (error) {
      if (error instanceof DownloadError) throw error;
      throw progress.stopped() ?? new DownloadError(`${url}: ${causeText(error)}`);
    }
    if (response.status === 416 && have > 0 && !retried) {
      // The part is not a prefix of this file (it changed on the server, or is already whole): start over.
      await response.body?.cancel();
      fs.rmSync(part, { force: true });
      progress.end();
      return downloadFile(url, dest, options, true);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new DownloadError(`${url} answered HTTP ${response.status}`);
    }
    const resumed = response.status === 206;
    const total = resumed ? rangeTotal(response.headers.get('content-range')) : contentLength(response);
    if (total !== undefined && total > maxBytes) {
      await response.body.cancel();
      fs.rmSync(part, { force: true });
      throw tooBig(url, maxBytes, `says it is ${total} bytes`);
    }
    let received = resumed ? have : 0;
    options.onProgress?.(received, total);
    // Each chunk written before the next is read: a cut connection leaves on disk all that came.
    const file = await fs.promises.open(part, resumed ? 'a' : 'w');
    let over = false;
    try {
      for await (const chunk of Readable.fromWeb(response.body as ReadableStream<Uint8Array>) as AsyncIterable<Buffer>) {
        if (received + chunk.length > maxBytes) {
          over = true;
          break;
        }
        progress.got(chunk.length);
        await file.write(chunk);
        received += chunk.length;
        options.onProgress?.(received, total);
      }
    } catch (error) {
      throw progress.stopped() ?? new DownloadError(`${url}: the download stopped at ${received} bytes (${causeText(error)})`);
    } finally {
      await file.close();
    }
    if (over) {
      // Leaving the loop cancelled the body; what is on disk can never become the file.
      fs.rmSync(part, { force: true });
      throw tooBig(url, maxBytes, 'sent more');
    }
    if (total !== undefined && received !== total)
      throw new DownloadError(`${url}: the connection closed after ${received} of ${total} bytes`);
    fs.renameSync(part, dest);
  } finally {
    progress.end();
  }
}

/**
 * A small document (a PyPI index page): read whole, but never more than `maxBytes`, and dropped
 * like a download that trickles. Its final URL (after redirects) is what relative links resolve against.
 */
export async function fetchBounded(
  url: string,
  options: { maxBytes: number; idleTimeoutMs?: number; accept?: string },
): Promise<{ body: Buffer; url: string; contentType: string }> {
  const progress = progressWatch(url, options.idleTimeoutMs ?? DEFAULT_IDLE_MS);
  try {
    let response: Response;
    let final: string;
    try {
      ({ response, url: final } = await fetchFollowing(url, {
        headers: options.accept ? { Accept: options.accept } : {},
        signal: progress.signal,
      }));
    } catch (error) {
      if (error instanceof DownloadError) throw error;
      throw progress.stopped() ?? new DownloadError(`${url}: ${causeText(error)}`);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new DownloadError(`${url} answered HTTP ${response.status}`);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of Readable.fromWeb(response.body as ReadableStream<Uint8Array>) as AsyncIterable<Buffer>) {
        if (received + chunk.length > options.maxBytes) throw tooBig(url, options.maxBytes, 'sent more');
        progress.got(chunk.length);
        chunks.push(chunk);
        received += chunk.length;
      }
    } catch (error) {
      if (error instanceof DownloadError) throw error;
      throw progress.stopped() ?? new DownloadError(`${url}: the answer stopped at ${received} bytes (${causeText(error)})`);
    }
    return { body: Buffer.concat(chunks), url: final, contentType: response.headers.get('content-type') ?? '' };
  } finally {
    progress.end();
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * fetch, following redirects itself (mirrors send downloads on to their CDN): each hop must be an
 * address a download source could be (https, or http on this machine), so a source cannot send the
 * app to plain http elsewhere, or to any other scheme. The final URL is returned with the answer.
 */
async function fetchFollowing(url: string, init: RequestInit): Promise<{ response: Response; url: string }> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { ...init, redirect: 'manual' });
    if (!REDIRECTS.has(response.status)) return { response, url: current };
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location) throw new DownloadError(`${current} redirects without saying where`);
    if (hop >= MAX_REDIRECTS) throw new DownloadError(`${url} redirects more than ${MAX_REDIRECTS} times`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new DownloadError(`${current} redirects to an address that is not a URL`);
    }
    if (!isDownloadUrl(next.href))
      throw new DownloadError(`${current} redirects to an address that is not https: ${next.protocol}//${next.host}`);
    current = next.href;
  }
}

/** The SHA-256 of a file, in lower-case hex. */
export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

const tooBig = (url: string, maxBytes: number, what: string) =>
  new DownloadError(`${url} ${what} than the ${maxBytes} bytes the file can be; the download was stopped and deleted`, 'tooBig');

/**
 * Aborts a fetch when less than PROGRESS_BYTES came within `idleMs` (the answer's headers included):
 * the clock starts again only once that much has come, not at every chunk.
 */
function progressWatch(url: string, idleMs: number) {
  const controller = new AbortController();
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const period = idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`;
  const arm = () => {
    clearTimeout(timer);
    since = 0;
    timer = setTimeout(
      () => controller.abort(new DownloadError(`${url}: less than ${PROGRESS_BYTES / 1024} KB came in ${period}`, 'tooSlow')),
      idleMs,
    );
  };
  arm();
  return {
    signal: controller.signal,
    got(bytes: number) {
      since += bytes;
      if (since >= PROGRESS_BYTES) arm();
    },
    /** The watch's own reason when it aborted the fetch. */
    stopped: (): DownloadError | undefined => (controller.signal.reason instanceof DownloadError ? controller.signal.reason : undefined),
    end: () => clearTimeout(timer),
  };
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function contentLength(response: Response): number | undefined {
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) && length > 0 && !response.headers.get('content-encoding') ? length : undefined;
}

function rangeTotal(header: string | null): number | undefined {
  const total = Number(/\/(\d+)$/.exec(header ?? '')?.[1]);
  return Number.isFinite(total) && total > 0 ? total : undefined;
}

/** fetch hides the reason in `cause` ("fetch failed": ECONNREFUSED…). */
function causeText(error: unknown): string {
  const err = error as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  const cause = err?.cause;
  if (cause?.code === 'UND_ERR_SOCKET') return 'the connection was cut';
  return cause?.code ?? cause?.message ?? err?.message ?? String(error);
}
