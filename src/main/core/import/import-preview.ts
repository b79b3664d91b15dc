import { randomUUID } from 'node:crypto';

import { sameEndpointAs } from '../../../shared/endpoint-url';
import type { ImportConflict, ImportEndpointItem, ImportPreview, ImportServerItem } from '../../../shared/import';
import { sameProgram as sameTarget } from '../../../shared/same-program';
import type { Settings } from '../../../shared/settings';
import type { ParsedConfig } from '../config/parse-config';
import { redactUrl } from '../logs/redact';
import { maskServer } from '../secrets/bridge-secrets';
import { codeEnvOf } from './code-env';

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
