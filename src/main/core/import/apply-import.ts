import { randomUUID } from 'node:crypto';

import { sameEndpointAs } from '../../../shared/endpoint-url';
import type { ConflictAction, ImportChoices, ImportPreview, ImportResult } from '../../../shared/import';
import { ImportChoicesSchema } from '../../../shared/import';
import { own, setOwn } from '../../../shared/own';
import { defaultToolSwitches, type ServerSettings, type Settings, SettingsSchema } from '../../../shared/settings';
import { firstIssue } from '../../../shared/zod-issue';
import type { ConfigProblem } from '../config/json-text';
import type { ParsedConfig } from '../config/parse-config';
import { fillInputs } from '../config/placeholders';

export class ImportError extends Error {
  /** A file that did not parse: each problem where it stands, for the CLI to word in its reader's language. */
  constructor(
    message: string,
    readonly problems?: ConfigProblem[],
  ) {
    super(message);
  }
}

/**
 * The settings after an import, computed whole and validated before anything is saved: either all
 * of the user's choices apply, or none.
 */
export function applyImport(
  current: Settings,
  parsed: ParsedConfig,
  preview: ImportPreview,
  rawChoices: ImportChoices,
): { settings: Settings; result: ImportResult; changedServers: string[]; removedServers: string[] } {
  const choices = ImportChoicesSchema.parse(rawChoices);
  const next: Settings = structuredClone(current);
  const result: ImportResult = { addedServers: [], replacedServers: [], addedEndpoints: [], skipped: 0, skippedNames: [] };
  const removedServers: string[] = [];

  parsed.servers.forEach((original, index) => {
    const item = preview.servers[index];
    if (!item) return;
    const choice = own(choices.servers, original.name) ?? { action: item.action };
    const action: ConflictAction = choice.action;
    if (action === 'skip') {
      result.skipped++;
      result.skippedNames.push(original.name);
      return;
    }
    const missing = item.needs.filter((id) => !(own(choices.inputs, id) ?? '').trim());
    if (missing.length > 0) throw new ImportError(`Server "${original.name}" needs a value for ${missing.join(', ')}.`);
    let server: ServerSettings = fillInputs(original, choices.inputs);
    if (action === 'rename') {
      const name = (choice.name ?? item.suggestedName).trim();
      if (!name) throw new ImportError(`Server "${original.name}" needs a new name.`);
      if (next.servers.some((s) => s.name === name))
        throw new ImportError(`A server called "${name}" already exists; choose another name for "${original.name}".`);
      server = { ...server, name };
    }
    const existing = next.servers.findIndex((s) => s.name === server.name);
    if (existing >= 0) {
      if (action !== 'replace') throw new ImportError(`A server called "${server.name}" already exists; skip, rename or replace it.`);
      next.servers[existing] = server;
      result.replacedServers.push(server.name);
    } else {
      next.servers.push(server);
      result.addedServers.push(server.name);
    }
    // Imported switches (xiaozhi-client's mcpServerConfig) belong to the default set.
    const tools = own(parsed.tools, original.name);
    const switches = defaultToolSwitches(next);
    if (tools) setOwn(switches, server.name, { ...own(switches, server.name), ...tools });
  });

  parsed.endpoints.forEach((endpoint, index) => {
    const item = preview.endpoints[index];
    if (!item) return;
    const choice = own(choices.endpoints, endpoint.name) ?? { action: item.action };
    if (choice.action === 'skip') {
      result.skipped++;
      result.skippedNames.push(endpoint.name);
      return;
    }
    const name = choice.action === 'rename' ? (choice.name ?? item.suggestedName).trim() : endpoint.name;
    if (choice.action === 'replace') {
      const same = sameEndpointAs(endpoint.url, next.endpoints);
      const at = next.endpoints.findIndex((e) => e.name === endpoint.name || e === same);
      if (at >= 0) {
        next.endpoints[at] = { ...(next.endpoints[at] as Settings['endpoints'][number]), url: endpoint.url };
        result.addedEndpoints.push(name);
        return;
      }
    }
    next.endpoints.push({ id: randomUUID(), name, url: endpoint.url, enabled: true });
    result.addedEndpoints.push(name);
  });

  if (parsed.modelscopeApiKey && !next.modelscope.apiKey) next.modelscope = { apiKey: parsed.modelscopeApiKey };
  const valid = SettingsSchema.safeParse(next);
  if (!valid.success) {
    const issue = firstIssue(valid.error);
    // Named as the file names it: "servers.3" counts the servers held already, which the person never sees.
    const [list, index, ...rest] = issue.path.split('.');
    const entry = list === 'servers' || list === 'endpoints' ? next[list][Number(index)] : undefined;
    const where = entry
      ? `the ${list === 'servers' ? 'server' : 'endpoint'} "${entry.name}"${rest.length > 0 ? ` at ${rest.join('.')}` : ''}`
      : `at ${issue.path}`;
    throw new ImportError(`The imported settings are not valid: ${where}: ${issue.message}`);
  }
  return { settings: valid.data, result, changedServers: [...result.addedServers, ...result.replacedServers], removedServers };
}
