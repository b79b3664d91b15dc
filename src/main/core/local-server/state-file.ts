import fs from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { SENDABLE_TOKEN } from '../../../shared/settings';
import { isLoopbackHost } from '../io/http-gate';
import { isOwnProcess } from '../servers/process-tree';
import { appDataDir, joinFor, type PlatformContext } from '../system/app-data-dir';
import { writeFileAtomic } from '../system/atomic-write';

/**
 * While the local MCP server listens, the app says where (and with which token) in a small file
 * only this user can read, so `xiaozhi-tray connect` finds it with no flags.
 */
export const STATE_FILE_NAME = 'local-server.json';

/** The app's folder: Electron's userData for "Xiaozhi Tray"; `XIAOZHI_TRAY_STATE_DIR` moves it (tests, portable setups). */
export function appStateDir(context: PlatformContext = { platform: process.platform, env: process.env }): string {
  const override = context.env.XIAOZHI_TRAY_STATE_DIR?.trim();
  if (override) return override;
  return joinFor(context.platform)(appDataDir(context), 'Xiaozhi Tray');
}

export const LocalServerStateSchema = z.object({
  // 0 and negative numbers name process groups (or every process): never the app.
  pid: z.number().int().positive(),
  /** The base URL, e.g. http://127.0.0.1:18790/mcp */
  url: z.string().url(),
  token: z.string().min(1),
  version: z.string(),
  startedAt: z.number(),
});

export type LocalServerState = z.infer<typeof LocalServerStateSchema>;

/**
 * Why a folder cannot hold the state file (undefined when it can): on Linux and macOS, a folder
 * another user owns or can write to lets them swap the file for their own address. A folder its
 * group can write to passes when that group is the user's own (Ubuntu's umask 002 gives every
 * user a group of their own, and folders mode 775).
 */
export function stateDirDistrust(dir: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32') return undefined;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    return undefined;
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid && stat.uid !== 0) return `its folder ${dir} belongs to another user (uid ${stat.uid})`;
  const groupWrites = (stat.mode & 0o020) !== 0 && stat.gid !== process.getgid?.();
  if ((stat.mode & 0o002) !== 0 || groupWrites)
    return `other users can write to its folder ${dir} (mode ${(stat.mode & 0o7777).toString(8)})`;
  return undefined;
}

/**
 * Writes the file, the user's alone (0600); refuses a folder others could write to. Another copy of
 * the app still running keeps its file (`connect` goes on finding it): what it says is returned, nothing written.
 */
export async function writeStateFile(dir: string, state: LocalServerState): Promise<{ heldBy?: LocalServerState }> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const distrust = stateDirDistrust(dir);
  if (distrust)
    throw new Error(
      `${distrust}: anyone there could replace the file and receive the token. Use a folder only you can write to (XIAOZHI_TRAY_STATE_DIR)`,
    );
  const current = readStateFile(dir);
  if (current.ok && current.state.pid !== state.pid) return { heldBy: current.state };
  await writeFileAtomic(path.join(dir, STATE_FILE_NAME), `${JSON.stringify(state, null, 2)}\n`, { private: true });
  return {};
}

/** Removes the file if it is still ours (another instance may have written its own since). */
export function removeStateFile(dir: string, pid = process.pid): void {
  const file = path.join(dir, STATE_FILE_NAME);
  // Read as `connect` reads it: a link to a device or a FIFO put there would hang the app's stop.
  const read = readSmall(file);
  if (!read || 'refused' in read) return;
  try {
    const current = LocalServerStateSchema.safeParse(JSON.parse(read.text));
    if (current.success && current.data.pid !== pid) return;
    fs.rmSync(file, { force: true });
  } catch {
    // Nothing there, or unreadable: nothing of ours to remove.
  }
}

export type StateLookup =
  | { ok: true; state: LocalServerState }
  | { ok: false; reason: 'missing' | 'invalid' | 'stale'; file: string }
  /** A file `connect` must not trust: someone else's, writable by others, or naming a server off this machine. */
  | { ok: false; reason: 'untrusted'; file: string; why: string };

/**
 * A plain http URL naming this machine by a loopback name: 127.x.x.x, localhost or [::1]. Not
 * 0.0.0.0 (which reaches every interface) nor an IPv4-mapped address ([::ffff:7f00:1]).
 */
export function isLoopbackUrl(url: URL): boolean {
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/**
 * Whether the file can be trusted to say where our server is: the token goes to the URL it names.
 * The URL must be plain http on this machine; on Linux and macOS the file must be this user's and
 * writable by nobody else. Undefined when it can.
 */
export function stateDistrust(file: string, url: string, platform: NodeJS.Platform = process.platform): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `it names "${url}", which is not a URL`;
  }
  if (!isLoopbackUrl(parsed))
    return `it names ${parsed.origin}, which is not a server on this machine (only 127.0.0.1, localhost or [::1] are taken from it)`;
  if (platform === 'win32') return undefined;
  const stat = fs.statSync(file);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `it belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return `others can write to it (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/** The app writes a couple of hundred bytes; a file much bigger is not the app's. */
const MAX_STATE_BYTES = 64 * 1024;

/**
 * The file's text, read only when it is a small regular file: a FIFO, a device (a link to
 * /dev/zero) or a huge file would keep `connect` reading for ever, before any other check.
 */
function readSmall(file: string): { text: string } | { refused: string } | undefined {
  let fd: number;
  try {
    // Non-blocking, so opening a FIFO with no writer does not wait for one.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { refused: 'it is not a regular file' };
    if (stat.size > MAX_STATE_BYTES) return { refused: `it is ${stat.size} bytes long, far more than the app writes` };
    const buffer = Buffer.alloc(MAX_STATE_BYTES + 1);
    const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
    if (length > MAX_STATE_BYTES) return { refused: `it is longer than ${MAX_STATE_BYTES} bytes, far more than the app writes` };
    return { text: buffer.toString('utf8', 0, length) };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The running app's local server, if the state file names one whose process is alive. */
export function readStateFile(dir: string): StateLookup {
  const file = path.join(dir, STATE_FILE_NAME);
  const read = readSmall(file);
  if (!read) return { ok: false, reason: 'missing', file };
  if ('refused' in read) return { ok: false, reason: 'untrusted', file, why: read.refused };
  const folder = stateDirDistrust(dir);
  if (folder) return { ok: false, reason: 'untrusted', file, why: folder };
  const text = read.text;
  let parsed: ReturnType<typeof LocalServerStateSchema.safeParse>;
  try {
    parsed = LocalServerStateSchema.safeParse(JSON.parse(text));
  } catch {
    return { ok: false, reason: 'invalid', file };
  }
  if (!parsed.success) return { ok: false, reason: 'invalid', file };
  let distrust: string | undefined;
  try {
    distrust = stateDistrust(file, parsed.data.url);
  } catch {
    return { ok: false, reason: 'missing', file };
  }
  if (distrust) return { ok: false, reason: 'untrusted', file, why: distrust };
  // Another user's process (EPERM) that got the pid of an app that has ended is no app of ours.
  if (!isOwnProcess(parsed.data.pid)) return { ok: false, reason: 'stale', file };
  return { ok: true, state: parsed.data };
}

/**
 * The token the local server last listened with, kept beside the state file (0600) after it stops:
 * a run that has no token of its own takes it again instead of making a new one, so a client entry
 * made once (Cursor's, Claude Desktop's) keeps working across restarts.
 */
export const LAST_TOKEN_FILE_NAME = 'local-server-token';

/** Keeps `token` for the next run; a folder others could write to is refused (as for the state file). */
export async function rememberToken(dir: string, token: string): Promise<void> {
  if (rememberedToken(dir) === token) return;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const distrust = stateDirDistrust(dir);
  if (distrust) throw new Error(`${distrust}: the token is not kept there`);
  await writeFileAtomic(path.join(dir, LAST_TOKEN_FILE_NAME), `${token}\n`, { private: true });
}

/** The token kept by an earlier run, when the file is this user's alone and holds a token a client can send. */
export function rememberedToken(dir: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const file = path.join(dir, LAST_TOKEN_FILE_NAME);
  const read = readSmall(file);
  if (!read || 'refused' in read || stateDirDistrust(dir, platform)) return undefined;
  if (platform !== 'win32') {
    const stat = fs.statSync(file);
    // Someone else who could write it would choose the token our server accepts.
    if ((process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o022) !== 0) return undefined;
  }
  const token = read.text.trim();
  return token.length >= 16 && SENDABLE_TOKEN.test(token) ? token : undefined;
}
