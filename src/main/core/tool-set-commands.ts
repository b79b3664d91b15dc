import type { z } from 'zod';
import type { BridgeCommands, CommandOutput } from '../../shared/bridge-api';
import type { Settings } from '../../shared/settings';
import type { toolSetCommands } from '../../shared/tool-set-api';
import type { ToolHub } from './hub/tool-hub';
import { addToolSet, removeToolSet, updateToolSet } from './hub/tool-set-edits';
import { knownConfigPaths } from './import/discover-clients';
import type { CallHistory } from './logs/call-history';
import { AddToClientSessions } from './local-server/add-to-client';
import {
  cherryStudioLink,
  clientEntry,
  defaultConnectCommand,
  type ConnectCommand,
  type EntryContext,
} from './local-server/client-entries';
import { exportConfig } from './import/export-config';
import { newLocalServerToken, type LocalServerController } from './local-server/local-server-controller';
import { clientToken } from './local-server/client-tokens';
import type { AddToClient } from '../../shared/tool-set-api';

type Name = keyof typeof toolSetCommands | 'exportConfig';
type Handlers = { [K in Name]: (input: z.output<BridgeCommands[K]['input']>) => Promise<CommandOutput<K>> };

/** What the tool-set commands need of the bridge. */
export interface ToolSetCommandContext {
  settings(): Settings;
  /** Validates and saves; throws (keeping the old settings) when invalid. */
  commit(next: Settings): void;
  /** Reconnects these endpoints (their set changed). */
  relink(endpointIds: string[]): Promise<void>;
  hub: ToolHub;
  localServer: LocalServerController;
  history: CallHistory;
  host: { openExternal?(url: string): Promise<void> | void; connectCommand?(): ConnectCommand };
}

/** The BridgeApi commands for tool sets, the local MCP server and "Add to …". */
export function toolSetCommandHandlers(context: ToolSetCommandContext): Handlers {
  const { hub, localServer } = context;
  const addTo = new AddToClientSessions();

  /** Saves a change of the local server's settings and waits until the server follows it. */
  const updateLocal = async (patch: Partial<Settings['localServer']>) => {
    const current = context.settings();
    context.commit({ ...current, localServer: { ...current.localServer, ...patch } });
    await localServer.settled();
  };
  const entryContext = (): EntryContext => ({
    url: localServer.baseUrl(),
    appToken: localServer.token(),
    connect: context.host.connectCommand?.() ?? defaultConnectCommand(),
  });
  const entryFor = (client: AddToClient) => clientEntry(client, entryContext());

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
      await context.relink(removed.movedEndpoints);
    },

    updateLocalServer: async (input) => {
      const current = context.settings().localServer;
      const clients = { ...current.clients };
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
    /** Our servers for other tools, or this app's local server as an entry of a client's file. */
    exportConfig: async ({ format }) => exportConfig(context.settings(), format, entryContext),
  };
}
