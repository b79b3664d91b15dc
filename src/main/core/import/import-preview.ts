import { randomUUID } from 'node:crypto';
import type { ImportConflict, ImportEndpointItem, ImportPreview, ImportServerItem } from '../../../shared/import';
import { serverTarget, type ServerSettings, type Settings } from '../../../shared/settings';
import { sameEndpointAs } from '../../../shared/endpoint-url';
import { redactUrl } from '../logs/redact';
import { maskServer } from '../secrets/bridge-secrets';
import type { ParsedConfig } from '../config/parse-config';
import { codeEnvOf } from './code-env';

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
const sameTarget = (fromFile: ServerSettings, held: ServerSettings) =>
  fromFile.transport === 'stdio'
    ? held.transport === 'stdio' && sameValue(fromFile.command, held.command) && sameList(programArgs(fromFile), programArgs(held))
    : sameUrl(fromFile, held);

/** `name`, or `name-2`, `name-3`… whichever is free. */
export function freeName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name}-${i}`)) return `${name}-${i}`;
}

/**
 * What an import would do to the current settings: each server and endpoint with its conflict (same
 * name, same command, same URL) and a sensible default action. Secrets are masked; nothing changes.
 */
export function buildPreview(source: string, parsed: ParsedConfig, current: Settings, id: string = randomUUID()): ImportPreview {
  const taken = new Set(current.servers.map((s) => s.name));
  const servers: ImportServerItem[] = parsed.servers.map((server, index) => {
    let conflict: ImportConflict | undefined;
    let action: ImportServerItem['action'] = 'add';
    // Against every server we hold, not only the one of the same name: a server imported before
    // (perhaps renamed since) is already there.
    const same =
      current.servers.find((s) => s.name === server.name && sameTarget(server, s)) ?? current.servers.find((s) => sameTarget(server, s));
    const byName = current.servers.find((s) => s.name === server.name);
    if (same) {
      conflict = {
        kind: same.name === server.name ? 'same-name' : server.transport === 'stdio' ? 'same-command' : 'same-url',
        existing: same.name,
      };
      action = 'skip';
    } else if (byName) {
      conflict = { kind: 'same-name', existing: byName.name };
      action = 'rename';
    }
    const suggestedName = freeName(server.name, taken);
    if (action !== 'skip') taken.add(action === 'rename' ? suggestedName : server.name);
    return {
      server: maskServer(server),
      ...(conflict ? { conflict } : {}),
      action,
      suggestedName,
      needs: parsed.needs[index] ?? [],
      codeEnv: codeEnvOf(server),
    };
  });
  const endpointNames = new Set(current.endpoints.map((e) => e.name));
  const endpoints: ImportEndpointItem[] = parsed.endpoints.map((endpoint) => {
    // The same address and token however the file writes it (a slash, case, quotes): one endpoint, one connection.
    const byUrl = sameEndpointAs(endpoint.url, current.endpoints);
    const byName = current.endpoints.find((e) => e.name === endpoint.name);
    const conflict: ImportConflict | undefined = byUrl
      ? { kind: 'same-url', existing: byUrl.name }
      : byName
        ? { kind: 'same-name', existing: byName.name }
        : undefined;
    const suggestedName = freeName(endpoint.name, endpointNames);
    endpointNames.add(suggestedName);
    return {
      name: endpoint.name,
      url: redactUrl(endpoint.url),
      ...(conflict ? { conflict } : {}),
      action: byUrl ? 'skip' : byName ? 'rename' : 'add',
      suggestedName,
    };
  });
  return {
    id,
    source,
    format: parsed.format,
    servers,
    endpoints,
    tools: parsed.tools,
    inputs: parsed.inputs,
    warnings: parsed.warnings.map((w) => ({
      path: w.path,
      ...(w.line !== undefined ? { line: w.line } : {}),
      ...(w.column !== undefined ? { column: w.column } : {}),
      message: w.message,
    })),
  };
}
