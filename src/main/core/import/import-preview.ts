import { randomUUID } from 'node:crypto';
import type { ImportConflict, ImportEndpointItem, ImportPreview, ImportServerItem } from '../../../shared/import';
import type { ServerSettings, Settings } from '../../../shared/settings';
import { formatProblem } from '../config/json-text';
import { redactRecord, redactUrl } from '../logs/redact';
import type { ParsedConfig } from './parse-config';

const sameCommand = (a: ServerSettings, b: ServerSettings) =>
  a.transport === 'stdio' && b.transport === 'stdio' && a.command === b.command && JSON.stringify(a.args) === JSON.stringify(b.args);
const sameUrl = (a: ServerSettings, b: ServerSettings) => a.transport !== 'stdio' && b.transport !== 'stdio' && a.url.replace(/\/+$/, '') === b.url.replace(/\/+$/, '');
const identical = (a: ServerSettings, b: ServerSettings) => JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));
const normalise = (s: ServerSettings) => JSON.parse(JSON.stringify(s, Object.keys(s).sort())) as unknown;

/** `name`, or `name-2`, `name-3`… whichever is free. */
export function freeName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name}-${i}`)) return `${name}-${i}`;
}

export function masked(server: ServerSettings): ServerSettings {
  return server.transport === 'stdio' ? { ...server, env: redactRecord(server.env) } : { ...server, headers: redactRecord(server.headers), url: redactUrl(server.url) };
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
    const byName = current.servers.find((s) => s.name === server.name);
    const byCommand = current.servers.find((s) => sameCommand(s, server));
    const byUrl = current.servers.find((s) => sameUrl(s, server));
    if (byName) {
      conflict = { kind: 'same-name', existing: byName.name };
      action = identical(byName, server) ? 'skip' : 'rename';
    } else if (byCommand) {
      conflict = { kind: 'same-command', existing: byCommand.name };
      action = 'skip';
    } else if (byUrl) {
      conflict = { kind: 'same-url', existing: byUrl.name };
      action = 'skip';
    }
    const suggestedName = freeName(server.name, taken);
    if (action !== 'skip') taken.add(action === 'rename' ? suggestedName : server.name);
    return { server: masked(server), ...(conflict ? { conflict } : {}), action, suggestedName, needs: parsed.needs[index] ?? [] };
  });
  const endpointNames = new Set(current.endpoints.map((e) => e.name));
  const endpoints: ImportEndpointItem[] = parsed.endpoints.map((endpoint) => {
    const byUrl = current.endpoints.find((e) => e.url === endpoint.url);
    const byName = current.endpoints.find((e) => e.name === endpoint.name);
    const conflict: ImportConflict | undefined = byUrl ? { kind: 'same-url', existing: byUrl.name } : byName ? { kind: 'same-name', existing: byName.name } : undefined;
    const suggestedName = freeName(endpoint.name, endpointNames);
    endpointNames.add(suggestedName);
    return { name: endpoint.name, url: redactUrl(endpoint.url), ...(conflict ? { conflict } : {}), action: byUrl ? 'skip' : byName ? 'rename' : 'add', suggestedName };
  });
  return {
    id,
    source,
    format: parsed.format,
    servers,
    endpoints,
    tools: parsed.tools,
    inputs: parsed.inputs,
    warnings: parsed.warnings.map((w) => ({ path: w.path, ...(w.line !== undefined ? { line: w.line } : {}), ...(w.column !== undefined ? { column: w.column } : {}), message: w.message })),
  };
}

/** The preview as text, for the CLI. */
export function describePreview(preview: ImportPreview): string {
  const lines = [`${preview.source}: ${preview.format} config`];
  for (const item of preview.servers) {
    const s = item.server;
    const target = s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : `${s.transport} ${s.url}`;
    const conflict = item.conflict ? ` (${item.conflict.kind.replace('-', ' ')} as "${item.conflict.existing}")` : '';
    const action = item.action === 'rename' ? `rename to "${item.suggestedName}"` : item.action;
    lines.push(`  server ${s.name}: ${target}${s.enabled ? '' : ' [disabled]'}${conflict} → ${action}`);
    if (item.needs.length > 0) lines.push(`    needs a value for ${item.needs.join(', ')}`);
  }
  for (const e of preview.endpoints) lines.push(`  endpoint ${e.name}: ${e.url}${e.conflict ? ` (${e.conflict.kind.replace('-', ' ')} as "${e.conflict.existing}")` : ''} → ${e.action}`);
  const switches = Object.values(preview.tools).reduce((n, t) => n + Object.keys(t).length, 0);
  if (switches > 0) lines.push(`  ${switches} tool setting(s)`);
  for (const w of preview.warnings) lines.push(`  warning: ${formatProblem(w)}`);
  return lines.join('\n');
}
