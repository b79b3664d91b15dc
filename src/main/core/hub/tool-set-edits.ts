import { randomBytes } from 'node:crypto';

import { isAllowedKey, KEY_NAME_RULE } from '../../../shared/forbidden-keys';
import { nameRecord, own } from '../../../shared/own';
import { DEFAULT_TOOL_SET, type Settings, type ToolSet, type ToolSettings } from '../../../shared/settings';

/**
 * Changes to tool sets as pure functions of the settings: each returns new settings (which the
 * bridge validates and saves whole) and never edits its input.
 */

export class ToolSetError extends Error {}

function requireSet(settings: Settings, id: string): ToolSet {
  const set = settings.toolSets.find((s) => s.id === id);
  if (!set) throw new ToolSetError(`No tool set has the id "${id}".`);
  return set;
}

/** Server and tool names become keys of `tools`: one a config file refuses would be lost, or refused by `check`. */
function requireKeyNames(what: string, names: readonly string[]): void {
  const refused = names.find((name) => !isAllowedKey(name));
  if (refused !== undefined) throw new ToolSetError(`The ${what} "${refused}" ${KEY_NAME_RULE}; its switches cannot be saved.`);
}

const mapSets = (settings: Settings, fn: (set: ToolSet) => ToolSet): Settings => ({ ...settings, toolSets: settings.toolSets.map(fn) });

/** A per-tool switch or description override in one set. `description: null` removes the override. */
export function withToolSetting(
  settings: Settings,
  setId: string,
  server: string,
  tool: string,
  patch: { enabled?: boolean; description?: string | null },
): Settings {
  requireSet(settings, setId);
  requireKeyNames('server name', [server]);
  requireKeyNames('tool name', [tool]);
  return mapSets(settings, (set) => {
    if (set.id !== setId) return set;
    const current = own(own(set.tools, server), tool) ?? { enabled: true };
    const updated: ToolSettings = { enabled: patch.enabled ?? current.enabled };
    const description = patch.description === undefined ? current.description : (patch.description ?? undefined);
    if (description !== undefined) updated.description = description;
    return { ...set, tools: { ...set.tools, [server]: { ...own(set.tools, server), [tool]: updated } } };
  });
}

/** Every listed tool of a server on or off in one set. */
export function withServerTools(settings: Settings, setId: string, server: string, tools: readonly string[], enabled: boolean): Settings {
  requireSet(settings, setId);
  requireKeyNames('server name', [server]);
  requireKeyNames('tool name', tools);
  return mapSets(settings, (set) => {
    if (set.id !== setId) return set;
    const forServer = nameRecord(Object.entries(own(set.tools, server) ?? {}));
    for (const tool of tools) forServer[tool] = { ...forServer[tool], enabled };
    return { ...set, tools: { ...set.tools, [server]: { ...forServer } } };
  });
}

/** A renamed server keeps its place and its switches in every set. */
export function renameServerInSets(settings: Settings, from: string, to: string): Settings {
  if (from === to) return settings;
  return mapSets(settings, (set) => {
    // Keyed by server names (a server may be called toString): a copy with no prototype, handed back as a plain object.
    const tools = nameRecord(Object.entries(set.tools));
    if (tools[from]) {
      tools[to] = tools[from];
      delete tools[from];
    }
    const servers = set.servers === 'all' ? 'all' : set.servers.map((s) => (s === from ? to : s));
    return { ...set, servers, tools: { ...tools } };
  });
}

/** A removed server leaves every set: a new server of the same name starts fresh. */
export function forgetServerInSets(settings: Settings, name: string): Settings {
  return mapSets(settings, (set) => {
    const tools = Object.fromEntries(Object.entries(set.tools).filter(([server]) => server !== name));
    const servers = set.servers === 'all' ? 'all' : set.servers.filter((s) => s !== name);
    return { ...set, servers, tools };
  });
}

/** An id from the name when it makes a tidy one, else a short random one; never one in use. */
function newSetId(settings: Settings, name: string): string {
  const slug = name.trim().toLowerCase().replace(/\s+/g, '-');
  const taken = (id: string) => settings.toolSets.some((s) => s.id === id);
  if (/^[a-z0-9][a-z0-9_-]{0,39}$/.test(slug) && !taken(slug)) return slug;
  let id: string;
  do id = `set-${randomBytes(4).toString('hex')}`;
  while (taken(id));
  return id;
}

function checkName(settings: Settings, name: string, except?: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ToolSetError('A tool set needs a name.');
  if (settings.toolSets.some((s) => s.name === trimmed && s.id !== except))
    throw new ToolSetError(`A tool set called "${trimmed}" already exists.`);
  return trimmed;
}

/** A new set: empty, every server, or a copy of another set's choice and switches. */
export function addToolSet(
  settings: Settings,
  input: { name: string; servers?: 'all' | string[]; copyFrom?: string },
): { settings: Settings; set: ToolSet } {
  const name = checkName(settings, input.name);
  const source = input.copyFrom !== undefined ? requireSet(settings, input.copyFrom) : undefined;
  const set: ToolSet = {
    id: newSetId(settings, name),
    name,
    servers: input.servers ?? (source ? structuredClone(source.servers) : []),
    tools: source ? structuredClone(source.tools) : {},
  };
  return { settings: { ...settings, toolSets: [...settings.toolSets, set] }, set };
}

/** Renames a set or changes its servers. The default set keeps every server. */
export function updateToolSet(
  settings: Settings,
  input: { id: string; name?: string | undefined; servers?: 'all' | string[] | undefined },
): Settings {
  requireSet(settings, input.id);
  if (input.id === DEFAULT_TOOL_SET && input.servers !== undefined && input.servers !== 'all') {
    throw new ToolSetError('The default tool set serves every server.');
  }
  // The window shows the default set by its own words in each language ("All tools", 全部工具).
  if (
    input.id === DEFAULT_TOOL_SET &&
    input.name !== undefined &&
    input.name.trim() !== settings.toolSets.find((s) => s.id === DEFAULT_TOOL_SET)?.name
  ) {
    throw new ToolSetError('The default tool set cannot be renamed: make a new set to give a choice of tools a name.');
  }
  const name = input.name !== undefined ? checkName(settings, input.name, input.id) : undefined;
  return mapSets(settings, (set) =>
    set.id !== input.id
      ? set
      : { ...set, ...(name !== undefined ? { name } : {}), ...(input.servers !== undefined ? { servers: input.servers } : {}) },
  );
}

/** Removes a set; whatever served it (endpoints, local clients) serves the default set again. */
export function removeToolSet(settings: Settings, id: string): { settings: Settings; movedEndpoints: string[] } {
  if (id === DEFAULT_TOOL_SET) throw new ToolSetError('The default tool set cannot be removed.');
  requireSet(settings, id);
  const movedEndpoints = settings.endpoints.filter((e) => e.toolSet === id).map((e) => e.id);
  const clients = Object.fromEntries(Object.entries(settings.localServer.clients).filter(([, choice]) => choice.toolSet !== id));
  return {
    settings: {
      ...settings,
      toolSets: settings.toolSets.filter((s) => s.id !== id),
      endpoints: settings.endpoints.map((e) => {
        if (e.toolSet !== id) return e;
        const { toolSet: _gone, ...rest } = e;
        return rest;
      }),
      localServer: {
        ...settings.localServer,
        toolSet: settings.localServer.toolSet === id ? DEFAULT_TOOL_SET : settings.localServer.toolSet,
        clients,
      },
    },
    movedEndpoints,
  };
}
