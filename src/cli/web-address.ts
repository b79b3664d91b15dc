import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { startAtomicWrite } from '../main/core/system/atomic-write';

/**
 * The web page's address kept across restarts of `run --ui` (issue 33: a new port and token at every
 * start, so no bookmark worked): the port and token of the last run, per config file, in a file only
 * the owner may read (the token opens the window). A file others can read is not trusted: a new token.
 */
export interface WebAddress {
  port: number;
  token: string;
}

const TOKEN = /^[A-Za-z0-9_-]{32,64}$/;

/** Where the address of a config's web page is kept: the state folder, one small file per config. */
export function webAddressFile(stateDir: string, configFile: string): string {
  return path.join(stateDir, 'web-ui', `${createHash('sha256').update(path.resolve(configFile)).digest('hex').slice(0, 16)}.json`);
}

/** The address kept for this config, or a new token (and any free port) when there is none to trust. */
export function rememberedWebAddress(file: string, platform: NodeJS.Platform = process.platform): Partial<WebAddress> & { token: string } {
  const fresh = { token: randomBytes(24).toString('base64url') };
  try {
    // Windows has no mode bits to read; elsewhere a file others may read keeps no token.
    if (platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) return fresh;
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<WebAddress>;
    if (typeof kept.token !== 'string' || !TOKEN.test(kept.token)) return fresh;
    const port = Number.isInteger(kept.port) && (kept.port as number) > 0 && (kept.port as number) < 65536 ? kept.port : undefined;
    return port === undefined ? { token: kept.token } : { token: kept.token, port };
  } catch {
    return fresh;
  }
}

/** Keeps this run's address for the next (0600, written whole). A failure to write only costs the bookmark. */
export function keepWebAddress(file: string, address: WebAddress): string | undefined {
  try {
    // A rename Windows refuses for a moment may still fail later: that too only costs the bookmark.
    startAtomicWrite(file, `${JSON.stringify(address)}\n`, { private: true }).done.catch(() => undefined);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
