import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';

/** A download that did not complete, in words the status can carry (no URL credentials: sources cannot hold any). */
export class DownloadError extends Error {}

export interface DownloadOptions {
  /** Bytes on disk so far, and the whole size when the server says it. */
  onProgress?: (received: number, total: number | undefined) => void;
  /** A connection that sends nothing this long is dropped (the part kept stays for the next try). */
  idleTimeoutMs?: number;
}

const DEFAULT_IDLE_MS = 30_000;

/**
 * Downloads `url` to `dest`, through `dest.part`: a download cut off (the network, the app quit)
 * leaves the part, and the next call asks only for the rest (HTTP Range). A server that ignores
 * the range sends the whole file again, which replaces the part. `dest` appears only once whole.
 */
export async function downloadFile(url: string, dest: string, options: DownloadOptions = {}, retried = false): Promise<void> {
  const part = `${dest}.part`;
  const have = sizeOf(part);
  const controller = new AbortController();
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => controller.abort(new DownloadError(`no data for ${idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`}`)),
      idleMs,
    );
  };
  touch();
  try {
    let response: Response;
    try {
      response = await fetch(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, signal: controller.signal });
    } catch (error) {
      throw new DownloadError(`${url}: ${causeText(error)}`);
    }
    if (response.status === 416 && have > 0 && !retried) {
      // The part is not a prefix of this file (it changed on the server, or is already whole): start over.
      await response.body?.cancel();
      fs.rmSync(part, { force: true });
      clearTimeout(idle);
      return downloadFile(url, dest, options, true);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new DownloadError(`${url} answered HTTP ${response.status}`);
    }
    const resumed = response.status === 206;
    const total = resumed ? rangeTotal(response.headers.get('content-range')) : contentLength(response);
    let received = resumed ? have : 0;
    options.onProgress?.(received, total);
    // Each chunk written before the next is read: a cut connection leaves on disk all that came.
    const file = await fs.promises.open(part, resumed ? 'a' : 'w');
    try {
      for await (const chunk of Readable.fromWeb(response.body as ReadableStream<Uint8Array>) as AsyncIterable<Buffer>) {
        touch();
        await file.write(chunk);
        received += chunk.length;
        options.onProgress?.(received, total);
      }
    } catch (error) {
      throw new DownloadError(`${url}: the download stopped at ${received} bytes (${causeText(controller.signal.reason ?? error)})`);
    } finally {
      await file.close();
    }
    if (total !== undefined && received !== total)
      throw new DownloadError(`${url}: the connection closed after ${received} of ${total} bytes`);
    fs.renameSync(part, dest);
  } finally {
    clearTimeout(idle);
  }
}

/** A small text file (a checksum list), bounded in size. */
export async function fetchText(url: string, maxBytes = 1024 * 1024, timeoutMs = DEFAULT_IDLE_MS): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new DownloadError(`${url}: ${causeText(error)}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DownloadError(`${url} answered HTTP ${response.status}`);
  }
  const text = await response.text();
  if (text.length > maxBytes) throw new DownloadError(`${url}: more than ${maxBytes} bytes`);
  return text;
}

/** The SHA-256 of a file, in lower-case hex. */
export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
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
