import { type ServerSettings, serverTarget } from './settings';

/*
 * Whether two servers run the same program (same command and arguments, or the same URL): the import
 * flags such a copy, and so does the server editor (issue 33: a copy added by hand went unflagged,
 * and its tools were renamed with the server's name in front).
 */

/**
 * A value of the file against a value we hold: equal, or equal once the file's placeholders
 * (`${workspaceFolder}`, `${input:…}`, `${env:…}`) are filled with anything, as they were when it
 * was imported before.
 */
function sameValue(fromFile: string, held: string): boolean {
  if (fromFile === held) return true;
  if (!fromFile.includes('${')) return false;
  const pattern = fromFile
    .split(/\$\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`, 's').test(held);
}

const sameList = (fromFile: string[], held: string[]) =>
  fromFile.length === held.length && fromFile.every((v, i) => sameValue(v, held[i] as string));

/** A URL as compared: host in lower case, no trailing slash (the same server however it was typed). */
function comparableUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}${url.search}`;
  } catch {
    return raw.replace(/\/+$/, '');
  }
}
const sameUrl = (fromFile: ServerSettings, held: ServerSettings) =>
  fromFile.transport !== 'stdio' &&
  held.transport !== 'stdio' &&
  sameValue(comparableUrl(serverTarget(fromFile)), comparableUrl(serverTarget(held)));

/** npx's "-y/--yes" (do not ask before installing) does not change which program runs. */
const programArgs = (server: ServerSettings & { transport: 'stdio' }) =>
  /(^|[\\/])npx(\.cmd)?$/i.test(server.command) ? server.args.filter((arg) => arg !== '-y' && arg !== '--yes') : server.args;

/** Runs the same program: same command and arguments, or the same URL. */
export const sameProgram = (fromFile: ServerSettings, held: ServerSettings): boolean =>
  fromFile.transport === 'stdio'
    ? held.transport === 'stdio' && sameValue(fromFile.command, held.command) && sameList(programArgs(fromFile), programArgs(held))
    : sameUrl(fromFile, held);
