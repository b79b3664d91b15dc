import fs from 'node:fs';
import path from 'node:path';

import { CancellationToken } from 'builder-util-runtime';

import type { Logger } from '../../core/logs/log-book';
import type { Cancellation, UpdaterBackend } from './update-controller';

export interface InstallKind {
  /** The app can check and update itself here. */
  updatable: boolean;
  /** A .deb: checks, but the user installs the new package by hand. */
  manualInstall: boolean;
}

/**
 * What kind of install this is. Only installers electron-builder made update themselves: NSIS on
 * Windows, the app in a DMG's folder on macOS, an AppImage; a .deb says so in resources/package-type.
 * A development run or an unpacked folder does not update.
 */
export function installKind(options: {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  resourcesPath: string;
  env: NodeJS.ProcessEnv;
}): InstallKind {
  if (!options.isPackaged) return { updatable: false, manualInstall: false };
  if (options.platform !== 'linux') return { updatable: true, manualInstall: false };
  if (options.env.APPIMAGE) return { updatable: true, manualInstall: false };
  let packageType = '';
  try {
    packageType = fs.readFileSync(path.join(options.resourcesPath, 'package-type'), 'utf8').trim();
  } catch {
    // No package-type: an unpacked folder.
  }
  return packageType === 'deb' ? { updatable: true, manualInstall: true } : { updatable: false, manualInstall: false };
}

/**
 * electron-updater's own updater for this platform (NSIS, Squirrel.Mac, AppImage, deb), its log
 * lines in ours. Loaded only when the app can update, so development runs never touch it.
 */
export async function loadElectronUpdater(log: Logger): Promise<UpdaterBackend> {
  const { autoUpdater } = await import('electron-updater');
  return logTo(timeOutUnanswered(autoUpdater), log);
}

/** electron-updater logs to the console unless given a logger: send its lines to our log book. */
export function logTo<T extends { logger: unknown }>(updater: T, log: Logger): T {
  updater.logger = {
    info: (message?: unknown) => log.info(String(message)),
    warn: (message?: unknown) => log.warn(String(message)),
    error: (message?: unknown) => log.error(String(message)),
  };
  return updater;
}

/** What the timeout needs of a request and its response (Electron's ClientRequest and IncomingMessage fit). */
interface TimedRequest {
  on(event: string, listener: (...args: never[]) => void): unknown;
  abort(): void;
}

/**
 * electron-updater times a request out when its socket idles, but Electron's net.request has no
 * 'socket' event: a mirror that accepts the connection and never answers held a check for ever
 * (the status stuck at "checking", no scheduled check after it, and electron-updater handing every
 * later check the same pending promise). Here a request without an answer, or without a byte of
 * it, for `timeoutMs` is aborted and fails as ETIMEDOUT (shown as "could not reach").
 */
export function timeOutUnanswered<T extends object>(updater: T, timeoutMs = 60_000): T {
  const executor = (updater as { httpExecutor?: { addTimeOutHandler?: unknown } }).httpExecutor;
  if (!executor || typeof executor.addTimeOutHandler !== 'function') throw new Error('electron-updater has no request timeout to replace');
  executor.addTimeOutHandler = (request: TimedRequest, callback: (error: Error) => void) => {
    const timer = setTimeout(() => {
      request.abort();
      callback(
        Object.assign(new Error(`no answer from the update server within ${Math.round(timeoutMs / 1000)} s`), { code: 'ETIMEDOUT' }),
      );
    }, timeoutMs);
    timer.unref?.();
    const done = () => clearTimeout(timer);
    request.on('response', (response: TimedRequest) => {
      timer.refresh();
      response.on('data', () => timer.refresh());
      for (const end of ['end', 'error', 'aborted']) response.on(end, done);
    });
    for (const end of ['error', 'abort', 'close']) request.on(end, done);
  };
  return updater;
}

/** electron-updater's own token (the package it uses), so that a stalled download's request is aborted. */
export const newCancellationToken = (): Cancellation => new CancellationToken();
