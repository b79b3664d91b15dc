import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { type MirrorUrls, type SourceAdvice, sourceAdvice } from '../../../shared/mirrors';
import { problem } from '../../../shared/problem';
import { RUNTIME_LABEL, RUNTIME_VERSIONS, type RuntimeName } from '../../../shared/runtime-need';
import { stateDirDistrust } from '../local-server/state-file';
import { failureCause } from '../problems/failure-cause';
import { ProblemError } from '../problems/server-problems';
import type { PreparedRuntime, RuntimeProvider } from './child-runtime';
import { DownloadError, downloadFile, PROGRESS_BYTES, sha256File } from './download-file';
import { wheelUrl } from './pypi-index';
import { type ArchivePin, RUNTIME_PINS, type RuntimePins } from './runtime-pins';
import { type RuntimeSource, runtimeSource } from './runtime-sources';
import { takeFromWheel } from './wheel-programs';

export interface RuntimeStoreOptions {
  /** The store's folder, in the app's data folder. */
  dir: string;
  /** The download sources chosen now (read at each fetch). */
  sources: () => MirrorUrls;
  platform?: NodeJS.Platform;
  arch?: string;
  idleTimeoutMs?: number;
  /** The SHA-256s and sizes the archives must have: the app's own (runtime-pins.ts) unless a test gives its stand-ins'. */
  pins?: RuntimePins;
  /** How often a download under way marks its lock as still held (tests make it quick). */
  lockBeatMs?: number;
  /** False: servers use only what is here already; a download is asked for (see RuntimeProvider). */
  fetchesOnStart?: boolean;
}

/**
 * Node.js and uv kept in the app's data folder, for servers whose runtime the user does not have.
 * A runtime is fetched once, checked against the SHA-256 the app carries for it (runtime-pins.ts:
 * the source only supplies bytes, never the checksum), no more bytes read than it can be, unpacked
 * into a temporary folder and renamed into place whole, so the store never holds half a runtime,
 * nor one the app did not pin. Two servers asking at once share one download.
 */
export class RuntimeStore implements RuntimeProvider {
  private readonly fetching = new Map<string, { done: Promise<PreparedRuntime>; listeners: Set<(percent: number | undefined) => void> }>();

  readonly fetchesOnStart: boolean;

  constructor(private readonly opts: RuntimeStoreOptions) {
    this.fetchesOnStart = opts.fetchesOnStart ?? true;
  }

  version(runtime: RuntimeName): string {
    return RUNTIME_VERSIONS[runtime];
  }

  /** The runtime if it is in the store already, without fetching. */
  installed(runtime: RuntimeName): PreparedRuntime | undefined {
    const source = this.source(runtime);
    return source && this.ready(source);
  }

  ensure(runtime: RuntimeName, onProgress: (percent: number | undefined) => void): Promise<PreparedRuntime> {
    const urls = this.opts.sources();
    const source = runtimeSource(runtime, urls, this.platform, this.arch);
    if (!source) return Promise.reject(this.failure(runtime, `no ${RUNTIME_LABEL[runtime]} build for ${this.platform} ${this.arch}`));
    try {
      fs.mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      return Promise.reject(this.failure(runtime, (error as Error).message));
    }
    const why = this.distrust();
    if (why !== undefined)
      return Promise.reject(
        new ProblemError(problem('server.runtimeFolderUnsafe', { runtime: RUNTIME_LABEL[runtime], folder: this.opts.dir, why })),
      );
    const ready = this.ready(source);
    if (ready) return Promise.resolve(ready);
    const pin = (this.opts.pins ?? RUNTIME_PINS).get(source.pinKey);
    if (!pin)
      return Promise.reject(this.failure(runtime, `the app carries no SHA-256 for ${source.archive}, and fetches nothing it cannot check`));
    const key = source.folder;
    let entry = this.fetching.get(key);
    if (!entry) {
      const listeners = new Set<(percent: number | undefined) => void>();
      const hear = (percent: number | undefined) => listeners.forEach((listener) => listener(percent));
      const advice = adviceFor(source, urls);
      const done = this.underLock(source, () => this.fetch(source, pin, advice, hear)).finally(() => this.fetching.delete(key));
      entry = { done, listeners };
      this.fetching.set(key, entry);
    }
    entry.listeners.add(onProgress);
    onProgress(undefined);
    return entry.done;
  }

  private get platform(): NodeJS.Platform {
    return this.opts.platform ?? process.platform;
  }

  private get arch(): string {
    return this.opts.arch ?? process.arch;
  }

  private source(runtime: RuntimeName): RuntimeSource | undefined {
    return runtimeSource(runtime, this.opts.sources(), this.platform, this.arch);
  }

  /**
   * Why the store's folder cannot hold programs the app runs (another user owns it or can write to
   * it, and could put their own uvx there), or undefined.
   */
  private distrust(): string | undefined {
    return stateDirDistrust(this.opts.dir, this.platform);
  }

  private ready(source: RuntimeSource): PreparedRuntime | undefined {
    if (this.distrust() !== undefined) return undefined;
    const binDir = path.join(this.opts.dir, source.folder, source.binDir);
    return fs.existsSync(path.join(binDir, source.program)) ? { binDir, version: source.version } : undefined;
  }

  private failure(runtime: RuntimeName, reason: string, params: Record<string, string | number> = {}): ProblemError {
    return new ProblemError(problem('server.runtimeDownloadFailed', { runtime: RUNTIME_LABEL[runtime], reason, ...params }));
  }

  /**
   * Runs `work` holding `<folder>.lock` (the pid of its holder) in the store, so that another copy of
   * the app (the desktop app and a headless run sharing a folder) does not download the same file
   * meanwhile: it waits, then finds the runtime there. A lock whose process is gone is taken over.
   */
  private async underLock(source: RuntimeSource, work: () => Promise<PreparedRuntime>): Promise<PreparedRuntime> {
    const lock = path.join(this.opts.dir, `${source.folder}.lock`);
    fs.mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
    for (;;) {
      try {
        fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw this.failure(source.runtime, (error as Error).message);
      }
      if (!held(lock)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      const ready = this.ready(source);
      if (ready) return ready;
    }
    // Marked as held while the work goes on: a lock nobody marks is left over (its pid may name another process by now).
    const beat = setInterval(() => {
      const now = new Date();
      fs.utimes(lock, now, now, () => undefined);
    }, this.opts.lockBeatMs ?? LOCK_BEAT_MS);
    beat.unref();
    try {
      return this.ready(source) ?? (await work());
    } finally {
      clearInterval(beat);
      fs.rmSync(lock, { force: true });
    }
  }

  private async fetch(
    source: RuntimeSource,
    pin: ArchivePin,
    advice: SourceAdvice,
    onProgress: (percent: number | undefined) => void,
  ): Promise<PreparedRuntime> {
    const { dir, idleTimeoutMs } = this.opts;
    const downloads = path.join(dir, 'downloads');
    const archive = path.join(downloads, source.archive);
    const label = RUNTIME_LABEL[source.runtime];
    const said = { host: hostOf(source.format === 'wheel' ? source.index : source.url), advice, version: source.version };
    try {
      fs.mkdirSync(downloads, { recursive: true });
      if (!fs.existsSync(archive)) {
        const url = source.format === 'wheel' ? await wheelUrl(source.index, 'uv', source.archive, idleTimeoutMs) : source.url;
        said.host = hostOf(url);
        let percentSaid = -1;
        await downloadFile(url, archive, {
          maxBytes: pin.maxBytes,
          ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
          onProgress: (received, total) => {
            const whole = total ?? pin.size;
            const percent = whole ? Math.min(100, Math.floor((received / whole) * 100)) : undefined;
            if (percent === percentSaid) return;
            percentSaid = percent ?? -1;
            onProgress(percent);
          },
        });
      }
      if ((await sha256File(archive)) !== pin.sha256) {
        // Never unpacked, never kept: the next try downloads it whole again.
        fs.rmSync(archive, { force: true });
        throw new ProblemError(problem('server.runtimeMismatch', { runtime: label, file: source.archive, ...said }));
      }
      try {
        await this.unpack(source, archive);
      } finally {
        // Unpacked, or one that cannot be: kept, it would only fail again.
        fs.rmSync(archive, { force: true });
      }
      const ready = this.ready(source);
      if (!ready) throw new Error(`${source.archive} holds no ${source.program} in ${source.binDir || 'its top folder'}`);
      return ready;
    } catch (error) {
      if (error instanceof ProblemError) throw error;
      if (error instanceof DownloadError && error.kind === 'tooBig')
        throw this.failure(source.runtime, 'tooBig', {
          ...said,
          megabytes: Math.ceil(pin.maxBytes / (1024 * 1024)),
          detail: error.message,
        });
      if (error instanceof DownloadError && error.kind === 'tooSlow')
        throw this.failure(source.runtime, 'tooSlow', {
          ...said,
          kilobytes: PROGRESS_BYTES / 1024,
          seconds: Math.max(1, Math.round((idleTimeoutMs ?? 30_000) / 1000)),
          detail: error.message,
        });
      const text = error instanceof Error ? error.message : String(error);
      // A site not reached is said as such (the window names the site and what to do); the address and code stay as the detail.
      const unreached = unreachedReason(text);
      if (unreached) throw this.failure(source.runtime, unreached.reason, { ...said, host: unreached.host || said.host, detail: text });
      throw this.failure(source.runtime, text, said);
    }
  }

  /** Unpacks into a temporary folder, then renames its one top folder (or itself) into place. */
  private async unpack(source: RuntimeSource, archive: string): Promise<void> {
    const { dir } = this.opts;
    const temp = path.join(dir, `.unpack-${crypto.randomBytes(6).toString('hex')}`);
    const final = path.join(dir, source.folder);
    fs.mkdirSync(temp);
    try {
      if (source.format === 'wheel') await takeFromWheel(archive, source.members, temp);
      else await extract(archive, temp, this.platform);
      const entries = fs.readdirSync(temp);
      const only = entries.length === 1 ? path.join(temp, entries[0]!) : undefined;
      const root = only && fs.statSync(only).isDirectory() ? only : temp;
      try {
        fs.renameSync(root, final);
      } catch (error) {
        // Another copy of the app finished the same runtime first: theirs is whole too.
        const code = (error as NodeJS.ErrnoException).code;
        if ((code !== 'EEXIST' && code !== 'ENOTEMPTY' && code !== 'EPERM') || !this.ready(source)) throw error;
      }
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
    }
  }
}

/** The host a runtime comes from, for the words of a failure (the URL's own, in full, is in the detail). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** Which sources the runtime came from: the official ones, the mainland China preset's, or the user's own. */
export function adviceFor(source: RuntimeSource, urls: MirrorUrls): SourceAdvice {
  return sourceAdvice(source.format === 'wheel' ? urls.uvIndex : source.runtime === 'node' ? urls.nodeDist : urls.uvDownload);
}

/** How often a copy of the app waiting for another's download looks again. */
const LOCK_POLL_MS = 250;
/** How often the copy downloading marks its lock as held. */
const LOCK_BEAT_MS = 10_000;
/**
 * A lock not marked for this long is left over, whatever its pid says: after a crash or a restart
 * the pid may name another live process (pid 1 always does), and waiting on it would never end.
 */
const LOCK_STALE_MS = 60_000;

function readPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a lock is held: marked lately, and its process runs (a lock still empty is being written, unless it is old). */
function held(lock: string): boolean {
  let age: number;
  try {
    age = Date.now() - fs.statSync(lock).mtimeMs;
  } catch {
    return false;
  }
  const pid = readPid(lock);
  return pid === undefined ? age < 10_000 : age < LOCK_STALE_MS && isAlive(pid);
}

/** Whether a process is running (EPERM: it is, as another user's). */
function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The system's tar (bsdtar on macOS and Windows 10+, which reads .zip too; GNU tar with xz on Linux); PowerShell for a .zip where tar fails. */
function extract(archive: string, into: string, platform: NodeJS.Platform): Promise<void> {
  const run = (command: string, args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(command, args, { windowsHide: true, maxBuffer: 1024 * 1024 }, (error, _stdout, stderr) =>
        error
          ? reject(new Error(`unpacking ${path.basename(archive)} failed: ${stderr.trim().split('\n').pop() || error.message}`))
          : resolve(),
      ),
    );
  if (platform === 'win32' && archive.endsWith('.zip'))
    return run('tar', ['-xf', archive, '-C', into]).catch(() =>
      run('powershell.exe', [
        '-NoProfile',
        '-NonInteractive',
        '-Command',
        `Expand-Archive -LiteralPath '${archive.replace(/'/g, "''")}' -DestinationPath '${into.replace(/'/g, "''")}' -Force`,
      ]),
    );
  return run('tar', ['-xf', archive, '-C', into]);
}

/** 'network' or 'tls' when a download's failure ("<url>: ENOTFOUND") is a site not reached, with the site's host. */
function unreachedReason(text: string): { reason: 'network' | 'tls'; host: string } | undefined {
  const url = /\bhttps?:\/\/[^\s'"`<>]+?(?=:?\s|$)/.exec(text)?.[0];
  const cause = failureCause(new Error(text), url ? { url } : {});
  if (!cause.code.startsWith('net.')) return undefined;
  return { reason: cause.code === 'net.tls' ? 'tls' : 'network', host: String(cause.params.host ?? '') };
}
