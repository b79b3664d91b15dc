import { problem } from '../../../shared/problem';
import type { UpdateSettings } from '../../../shared/settings';
import type { UpdateStatus } from '../../../shared/updates';
import type { Logger } from '../../core/logs/log-book';
import { classifyUpdateError, shortMessage } from './update-errors';
import { BUILD_MIRROR, channelFileName, checkFeedFileSize, feedPage, manualDownloadUrl, type UpdateFeed, updateFeed } from './update-feed';

/** The part of electron-updater's AppUpdater we drive (its real updaters fit; a seam for tests). */
export interface UpdaterBackend {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: UpdateFeed): void;
  checkForUpdates(): Promise<{ isUpdateAvailable: boolean; updateInfo: { version: string; files: { url: string }[] } } | null>;
  /** electron-updater takes its CancellationToken here (see `newCancellation`). */
  downloadUpdate(cancellation?: Cancellation): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'download-progress', listener: (info: { percent: number }) => void): unknown;
}

/** Cancels a download under way (electron-updater's CancellationToken). */
export interface Cancellation {
  cancel(): void;
}

export interface UpdateControllerOptions {
  /** Undefined where the app cannot update itself (a development run, an unpacked folder). */
  backend: UpdaterBackend | undefined;
  currentVersion: string;
  settings: () => UpdateSettings;
  buildMirror?: string | undefined;
  /** This install cannot replace itself (a .deb): say where the new package is instead of downloading it. */
  manualInstall?: boolean;
  log: Logger;
  isQuitting: () => boolean;
  /** Stops every server (their whole process trees) before the updater quits the app. */
  prepareQuit: () => Promise<void>;
  /** The check at start waits this long, so that start-up is not slowed down. */
  firstCheckDelayMs?: number;
  intervalMs?: number;
  /** A download with no progress for this long is given up (an error, announced once); checks go on. */
  stallMs?: number;
  /** A token to cancel a download with; without it a stalled download is only left behind. */
  newCancellation?: () => Cancellation;
  /** Refuses an absurd feed file before the updater reads it (default: a bounded GET of a mirror's channel file). */
  checkFeed?: (feed: UpdateFeed) => Promise<void>;
}

const STALL_MS = 5 * 60_000;
const noop = () => undefined;

/** A mirror's channel file must be of a sane size; GitHub's releases are not checked (they are ours). */
async function checkMirrorFeed(feed: UpdateFeed): Promise<void> {
  if (feed.provider === 'generic') await checkFeedFileSize(`${feed.url}/${channelFileName(process.platform, process.arch)}`);
}

const HOUR = 3_600_000;

/**
 * Checks at start and every few hours (never while quitting), downloads in the background, and
 * waits for the user to restart. A problem is announced once: the same one again on a scheduled
 * check stays quiet until a check succeeds or the user asks.
 */
export class UpdateController {
  private current: UpdateStatus;
  private readonly listeners = new Set<(status: UpdateStatus) => void>();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<UpdateStatus> | undefined;
  private lastAnnounced: string | undefined;
  private lastPercent = -1;
  /** The download under way: its watchdog and cancellation; a download given up is no longer it. */
  private downloading: { watchdog: NodeJS.Timeout; cancellation: Cancellation | undefined } | undefined;
  /** A cancelled download until it has settled: electron-updater hands it to every downloadUpdate() till then. */
  private abandoned: Promise<void> | undefined;

  constructor(private readonly options: UpdateControllerOptions) {
    this.current = { state: 'idle', currentVersion: options.currentVersion };
    this.current = this.base(options.backend ? (options.settings().enabled ? 'idle' : 'disabled') : 'unsupported');
    if (options.backend) {
      // We download ourselves (to see the outcome), and a downloaded update installs on quit too.
      options.backend.autoDownload = false;
      options.backend.autoInstallOnAppQuit = true;
      options.backend.on('download-progress', (info) => this.onProgress(info.percent));
    }
  }

  status(): UpdateStatus {
    return this.current;
  }

  /** A check is scheduled (false once quitting, switched off, or stopped). */
  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  subscribe(listener: (status: UpdateStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the schedule: a first check soon, then one every `intervalMs`. */
  start(): void {
    this.schedule(this.options.firstCheckDelayMs ?? 30_000);
  }

  /** No more checks, and no watchdog left running (the app quits). */
  stop(): void {
    this.unschedule();
    if (this.downloading) clearTimeout(this.downloading.watchdog);
  }

  private unschedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The update settings changed: follow the switch, and check again soon with the new feed. */
  settingsChanged(): void {
    if (!this.options.backend) return;
    if (!this.options.settings().enabled) {
      this.unschedule();
      // A check under way finishes and says its outcome; nothing is scheduled after it.
      if (!this.busy() && this.current.state !== 'manual') this.set(this.base('disabled'));
      return;
    }
    if (this.current.state === 'disabled') this.set(this.base('idle'));
    this.lastAnnounced = undefined;
    // A check under way schedules the next one when it ends.
    if (!this.busy()) this.schedule(this.options.firstCheckDelayMs ?? 30_000);
  }

  /** `manual`: the user asked (Settings, the tray), so the outcome is shown whatever it is. */
  check(manual = true): Promise<UpdateStatus> {
    this.checking ??= this.runCheck(manual).finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /** "Restart to update": stop the servers first, then let the updater quit and install. */
  async install(): Promise<void> {
    const backend = this.options.backend;
    if (!backend || this.current.state !== 'ready') throw new Error('No update has been downloaded yet.');
    this.stop();
    this.options.log.info(
      `restarting to install version ${this.current.version}`,
      problem('log.update.restarting', { version: this.current.version ?? '' }),
    );
    await this.options.prepareQuit();
    // Silent (no installer wizard), and start the app again afterwards.
    backend.quitAndInstall(true, true);
  }

  private busy(): boolean {
    return this.current.state === 'checking' || this.current.state === 'downloading' || this.current.state === 'ready';
  }

  private schedule(delayMs: number): void {
    this.unschedule();
    if (!this.options.backend || this.options.isQuitting()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.scheduledCheck();
    }, delayMs);
    this.timer.unref?.();
  }

  private async scheduledCheck(): Promise<void> {
    if (this.options.isQuitting()) return;
    if (this.options.settings().enabled && !this.busy()) await this.check(false);
    if (!this.options.isQuitting() && this.options.settings().enabled) this.schedule(this.options.intervalMs ?? 4 * HOUR);
  }

  private feed(): UpdateFeed {
    return updateFeed(this.options.settings(), this.options.buildMirror === undefined ? BUILD_MIRROR : this.options.buildMirror);
  }

  private base(state: UpdateStatus['state']): UpdateStatus {
    const mirror = this.options.buildMirror === undefined ? BUILD_MIRROR : this.options.buildMirror;
    return {
      state,
      currentVersion: this.options.currentVersion,
      ...(this.options.backend ? { feedUrl: feedPage(this.feed()) } : {}),
      ...(mirror ? { defaultMirror: mirror } : {}),
      ...(this.current.checkedAt !== undefined ? { checkedAt: this.current.checkedAt } : {}),
    };
  }

  private async runCheck(manual: boolean): Promise<UpdateStatus> {
    const backend = this.options.backend;
    // Never while quitting: the tray's "Check for updates" stays clickable while the servers stop.
    if (!backend || this.options.isQuitting()) return this.current;
    if (this.current.state === 'downloading' || this.current.state === 'ready') return this.current;
    const feed = this.feed();
    this.set(this.base('checking'));
    try {
      await (this.options.checkFeed ?? checkMirrorFeed)(feed);
      backend.setFeedURL(feed);
      const result = await backend.checkForUpdates();
      const checked = { ...this.base('idle'), checkedAt: Date.now() };
      if (!result) return this.set({ ...checked, state: 'unsupported' });
      if (!result.isUpdateAvailable) {
        this.lastAnnounced = undefined;
        this.options.log.info(
          `up to date (${this.options.currentVersion}; the feed has ${result.updateInfo.version})`,
          problem('log.update.upToDate', { version: this.options.currentVersion }),
        );
        return this.set({ ...checked, state: 'up-to-date' });
      }
      const version = result.updateInfo.version;
      if (this.options.manualInstall) {
        this.lastAnnounced = undefined;
        this.options.log.info(
          `version ${version} is available; this package is updated by hand`,
          problem('log.update.byHand', { version }),
        );
        return this.set({ ...checked, state: 'manual', version, downloadUrl: manualDownloadUrl(feed, version, result.updateInfo.files) });
      }
      // The app began quitting during the check: no download (it would install on the way out).
      if (this.options.isQuitting()) return this.set({ ...checked, state: 'idle' });
      this.options.log.info(`downloading version ${version}`, problem('log.update.downloading', { version }));
      this.lastPercent = -1;
      this.set({ ...checked, state: 'downloading', version, percent: 0 });
      void this.download(version, manual);
      return this.current;
    } catch (error) {
      return this.fail(error, manual);
    }
  }

  private async download(version: string, manual: boolean): Promise<void> {
    const stallMs = this.options.stallMs ?? STALL_MS;
    // Else this download would be the one given up, and fail as "cancelled".
    await this.abandoned;
    const cancellation = this.options.newCancellation?.();
    let pending: Promise<unknown> | undefined;
    const watchdog = setTimeout(() => {
      if (this.downloading !== current) return;
      this.downloading = undefined;
      if (cancellation && pending) {
        // (Bounded: should electron-updater never settle it, the next download is not held for ever.)
        const bound = new Promise<void>((resolve) => {
          setTimeout(resolve, stallMs).unref?.();
        });
        const abandoned: Promise<void> = Promise.race([pending.then(noop, noop), bound]).then(() => {
          if (this.abandoned === abandoned) this.abandoned = undefined;
        });
        this.abandoned = abandoned;
      }
      cancellation?.cancel();
      // Scheduled checks stay quiet about the same stall; the next one downloads again.
      this.fail(
        Object.assign(new Error(`the download of version ${version} made no progress for ${Math.round(stallMs / 1000)} s`), {
          code: 'ERR_UPDATE_STALLED',
        }),
        manual,
      );
    }, stallMs);
    watchdog.unref?.();
    const current = { watchdog, cancellation };
    this.downloading = current;
    try {
      pending = this.options.backend!.downloadUpdate(cancellation);
      await pending;
      if (this.downloading !== current) return;
      // A success: the next problem is news again. (Not at "available": a download that stalls
      // every time is announced once.)
      this.lastAnnounced = undefined;
      this.options.log.info(`version ${version} is downloaded; it installs on restart`, problem('log.update.downloaded', { version }));
      this.set({ ...this.base('ready'), version });
    } catch (error) {
      if (this.downloading === current) this.fail(error, manual);
    } finally {
      clearTimeout(watchdog);
      if (this.downloading === current) this.downloading = undefined;
    }
  }

  private onProgress(percent: number): void {
    if (this.current.state !== 'downloading') return;
    // Bytes arrive: the watchdog starts over.
    this.downloading?.watchdog.refresh();
    const rounded = Math.max(0, Math.min(100, Math.floor(percent)));
    // One status per whole percent, not one per network chunk.
    if (rounded === this.lastPercent) return;
    this.lastPercent = rounded;
    this.set({ ...this.current, percent: rounded });
  }

  private fail(error: unknown, manual: boolean): UpdateStatus {
    const code = classifyUpdateError(error);
    const message = shortMessage(error);
    const announce = manual || this.lastAnnounced !== code;
    if (announce) this.lastAnnounced = code;
    this.options.log.warn(`update ${code}: ${message}`);
    return this.set({ ...this.base('error'), checkedAt: Date.now(), error: { code, message, announce } });
  }

  private set(status: UpdateStatus): UpdateStatus {
    this.current = status;
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch (error) {
        this.options.log.warn(`an update listener failed: ${String(error)}`);
      }
    }
    return status;
  }
}
