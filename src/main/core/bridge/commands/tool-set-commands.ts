import { nameRecord } from '../../../../shared/own';
import type { Settings } from '../../../../shared/settings';
import type { AddToClient, toolSetCommands } from '../../../../shared/tool-set-api';
import type { ToolHub } from '../../hub/tool-hub';
import { addToolSet, removeToolSet, updateToolSet } from '../../hub/tool-set-edits';
import { knownConfigPaths } from '../../import/discover-clients';
import { AddToClientSessions } from '../../local-server/add-to-client';
import { cherryStudioLink, clientEntry, type EntryContext } from '../../local-server/client-entries';
import { clientToken } from '../../local-server/client-tokens';
import { type LocalServerController, newLocalServerToken } from '../../local-server/local-server-controller';
import type { CallHistory } from '../../logs/call-history';
import type { BridgeHost } from '../bridge-host';
import type { EndpointFleet } from '../endpoint-fleet';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** What the tool-set commands need of the bridge. */
export interface ToolSetCommandContext extends SettingsAccess {
  /** Endpoints whose set changed are reconnected. */
  endpoints: Pick<EndpointFleet, 'replace'>;
  hub: Pick<ToolHub, 'forSet'>;
  localServer: Pick<LocalServerController, 'settled' | 'dropOverride' | 'token' | 'effective'>;
  history: Pick<CallHistory, 'countsByCaller'>;
  host: Pick<BridgeHost, 'openExternal'>;
  /** What an entry for the local server says (its URL, token and `connect` command). */
  entryContext(): EntryContext;
}

/** The BridgeApi commands for tool sets, the local MCP server and "Add to …". */
export function toolSetCommandHandlers(context: ToolSetCommandContext): CommandHandlers<typeof toolSetCommands> {
  const { hub, localServer } = context;
  const addTo = new AddToClientSessions();

  /** Saves a change of the local server's settings and waits until the server follows it. */
  const updateLocal = async (patch: Partial<Settings['localServer']>) => {
    const current = context.settings();
    context.commit({ ...current, localServer: { ...current.localServer, ...patch } });
    await localServer.settled();
  };
  const entryFor = (client: AddToClient) => clientEntry(client, context.entryContext());

  return {
    getToolSetCatalog: async ({ id }) => {
      if (!context.settings().toolSets.some((set) => set.id === id)) throw new Error(`No tool set has the id "${id}".`);
      return hub.forSet(id).catalog();
    },
    addToolSet: async (input) => {
      const added = addToolSet(context.settings(), input);
      context.commit(added.settings);
      return added.set;
    },
    updateToolSet: async (input) => context.commit(updateToolSet(context.settings(), input)),
    removeToolSet: async ({ id }) => {
      const removed = removeToolSet(context.settings(), id);
      context.commit(removed.settings);
      // Endpoints that served it serve the default set: xiaozhi may only read the tool list when a session starts.
      for (const endpointId of removed.movedEndpoints) await context.endpoints.replace(endpointId);
    },

    updateLocalServer: async (input) => {
      const current = context.settings().localServer;
      const clients = nameRecord(Object.entries(current.clients));
      for (const [client, toolSet] of Object.entries(input.clients ?? {})) {
        if (toolSet === null) delete clients[client];
        else clients[client] = { toolSet };
      }
      // What the user sets in the window wins over this run's command-line flags.
      if (input.enabled !== undefined) localServer.dropOverride('enabled');
      if (input.port !== undefined) localServer.dropOverride('port');
      if (input.host !== undefined) localServer.dropOverride('host');
      await updateLocal({
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.port !== undefined ? { port: input.port } : {}),
        ...(input.host !== undefined ? { host: input.host } : {}),
        ...(input.toolSet !== undefined ? { toolSet: input.toolSet } : {}),
        clients,
      });
    },
    revealLocalServerToken: async (input) => clientToken(localServer.token(), input?.client ?? ''),
    regenerateLocalServerToken: async () => {
      localServer.dropOverride('token');
      await updateLocal({ token: newLocalServerToken() });
    },

    previewAddToClient: async ({ client, toolSet }) => {
      const settings = context.settings();
      const chosen = toolSet ?? settings.localServer.clients[client]?.toolSet ?? settings.localServer.toolSet;
      if (!settings.toolSets.some((set) => set.id === chosen)) throw new Error(`No tool set has the id "${chosen}".`);
      const path =
        client === 'cherry-studio'
          ? undefined
          : knownConfigPaths({ platform: process.platform, env: process.env }).find((known) => known.client === client)?.path;
      return addTo.preview({
        client,
        path,
        entry: entryFor(client),
        token: clientToken(localServer.token(), client),
        toolSet: chosen,
        turnsServerOn: !localServer.effective().enabled,
      });
    },
    applyAddToClient: async ({ id, makePrivate }) => {
      const pending = addTo.take(id);
      // The client serves the set chosen in the preview, and the server must be on for it to connect.
      const clients = { ...context.settings().localServer.clients, [pending.client]: { toolSet: pending.toolSet } };
      localServer.dropOverride('enabled');
      await updateLocal({ enabled: true, clients });
      // Written after the server is on, so the entry names the port it really listens on.
      const entry = entryFor(pending.client);
      if (pending.path === undefined) {
        if (!context.host.openExternal) return { opened: false };
        await context.host.openExternal(cherryStudioLink(entry));
        return { opened: true };
      }
      return { path: await AddToClientSessions.write(pending, entry, makePrivate === true), opened: false };
    },

    getCallerCounts: async () => context.history.countsByCaller(),
  };
}
