import fs from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { nameRecord, own } from '../../../shared/own';
import { stateDirDistrust } from '../local-server/state-file';
import { writeFileAtomic } from '../system/atomic-write';

/**
 * Where the sign-ins (OAuth) of remote servers are kept: per server, the client the app registered
 * and the tokens it was given. Headless: a file only this user can read, beside the local server's
 * state file; the desktop app seals the same file's content with the OS keychain (`Sealer`).
 */
export const TOKENS_FILE_NAME = 'oauth-tokens.json';

/** One server's sign-in: bound to the URL it was made for (a server whose URL changed starts again). */
export const OAuthRecordSchema = z.object({
  serverUrl: z.string(),
  /** The client as registered (dynamic registration, or a client metadata document's URL), with its `issuer`. */
  client: z.looseObject({ client_id: z.string() }).optional(),
  tokens: z.looseObject({ access_token: z.string(), token_type: z.string() }).optional(),
  /** When the tokens were saved (ms): with `expires_in`, when the access token runs out. */
  savedAt: z.number().optional(),
  /** A wider scope the server asked for (step-up) that the next sign-in asks for. */
  wantScope: z.string().optional(),
});
export type OAuthRecord = z.infer<typeof OAuthRecordSchema>;

const VaultFileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), OAuthRecordSchema) });
type VaultFile = z.infer<typeof VaultFileSchema>;

/** Sign-ins cannot be kept here (a folder others can write to, a file the desktop app sealed). */
export class VaultRefused extends Error {}

/** A record too big to keep (a hostile sign-in server's gigantic token): the others are kept as they are. */
export class VaultTooBig extends VaultRefused {}

export interface TokenVault {
  get(server: string): Promise<OAuthRecord | undefined>;
  /** Replaces (or with undefined, removes) one server's record; the others are kept. */
  set(server: string, record: OAuthRecord | undefined): Promise<void>;
  /** Calls `listener` after a change, this process's or another's (`xiaozhi-tray login`); returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  close(): void;
}

/** Seals the file's content (the desktop app: Electron's safeStorage, the OS keychain's key). */
export interface Sealer {
  seal(text: string): string;
  open(sealed: string): string;
}

/** For tests and runs without a folder: nothing leaves memory. */
export class MemoryVault implements TokenVault {
  private readonly records = new Map<string, OAuthRecord>();
  private readonly listeners = new Set<() => void>();
  get(server: string): Promise<OAuthRecord | undefined> {
    return Promise.resolve(this.records.get(server));
  }
  set(server: string, record: OAuthRecord | undefined): Promise<void> {
    if (record) this.records.set(server, record);
    else this.records.delete(server);
    for (const listener of this.listeners) listener();
    return Promise.resolve();
  }
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  close(): void {
    this.listeners.clear();
  }
}

/** Whether `file` is a symbolic link (not ours: what it points to is not read, nor written). */
function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** How often another process's write is looked for (a `login` run beside the app). */
const WATCH_INTERVAL_MS = 1000;
/** A vault is a few kilobytes; anything much bigger is not ours. */
const MAX_FILE_BYTES = 1024 * 1024;

/** The file vault: 0600, written whole and atomically, in a folder nobody else can write to. */
export class FileVault implements TokenVault {
  readonly file: string;
  private writes: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  private watching = false;

  constructor(
    dir: string,
    private readonly sealer?: Sealer,
  ) {
    this.file = path.join(dir, TOKENS_FILE_NAME);
  }

  async get(server: string): Promise<OAuthRecord | undefined> {
    await this.writes;
    return own(this.read().servers, server);
  }

  set(server: string, record: OAuthRecord | undefined): Promise<void> {
    const write = this.writes.then(async () => {
      if (!this.sealer && this.isSealed())
        throw new VaultRefused('sign-ins here are kept by the desktop app (sealed with the system keychain): sign in from its window');
      const data = this.read();
      // A server's name as a key of the file's object: never __proto__ (the settings refuse it as a server name).
      const servers = nameRecord(Object.entries(data.servers));
      if (record) servers[server] = record;
      else delete servers[server];
      data.servers = { ...servers };
      const dir = path.dirname(this.file);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const distrust = stateDirDistrust(dir);
      // Whoever can write there could put their own file in its place, or read the one we write.
      if (distrust)
        throw new VaultRefused(`sign-ins are not saved: ${distrust}. Use a folder only you can write to (XIAOZHI_TRAY_STATE_DIR)`);
      const json = JSON.stringify(data);
      const text = this.sealer ? JSON.stringify({ version: 1, sealed: this.sealer.seal(json) }) : json;
      // A file past the bound reads back as empty: writing it would forget every server's sign-in.
      if (Buffer.byteLength(text) >= MAX_FILE_BYTES) throw new VaultTooBig(`the sign-in of "${server}" is too big to keep`);
      // Tokens go into this folder only: a link put in the file's place is replaced, never written through.
      if (isLink(this.file)) fs.rmSync(this.file);
      await writeFileAtomic(this.file, `${text}\n`, { private: true });
    });
    this.writes = write.catch(() => undefined);
    return write.then(() => this.changed());
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.watching) {
      this.watching = true;
      // Polled, not fs.watch: it sees a file that did not exist yet, and renames over it, on every platform.
      fs.watchFile(this.file, { persistent: false, interval: WATCH_INTERVAL_MS }, (now, before) => {
        if (now.mtimeMs !== before.mtimeMs || now.ino !== before.ino) this.changed();
      });
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  close(): void {
    this.listeners.clear();
    if (this.watching) fs.unwatchFile(this.file);
    this.watching = false;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Whether the file was sealed by the desktop app (a headless run beside it must not overwrite its sign-ins). */
  private isSealed(): boolean {
    if (isLink(this.file)) return false;
    try {
      return typeof (JSON.parse(fs.readFileSync(this.file, 'utf8')) as { sealed?: unknown } | null)?.sealed === 'string';
    } catch {
      return false;
    }
  }

  /** The whole file; empty when it is missing, unreadable or not ours (a sign-in is asked for again, never a crash). */
  private read(): VaultFile {
    const empty: VaultFile = { version: 1, servers: {} };
    let text: string;
    try {
      const stat = fs.lstatSync(this.file);
      if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return empty;
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return empty;
    }
    try {
      let parsed: unknown = JSON.parse(text);
      const sealed = (parsed as { sealed?: unknown } | null)?.sealed;
      if (typeof sealed === 'string') {
        if (!this.sealer) return empty;
        parsed = JSON.parse(this.sealer.open(sealed));
      }
      const checked = VaultFileSchema.safeParse(parsed);
      return checked.success ? checked.data : empty;
    } catch {
      return empty;
    }
  }
}
