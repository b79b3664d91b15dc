import { randomUUID } from 'node:crypto';
import { countOf } from '../../shared/count-words';
import type { BridgeApi, CommandName } from '../../shared/bridge-api';
import { DEFAULT_TOOL_SET, EndpointSettingsSchema, type ServerSettings, type Settings, type ToolMode } from '../../shared/settings';
import type { BridgeState } from '../../shared/status';
import type { Problem } from '../../shared/problem';
import { redactProblem, restoreMaskedServer, restoreMaskedUrl, redactSettings } from './bridge-secrets';
import type { SettingsStore } from './config/settings-store';
import type { EndpointLink } from './endpoint/endpoint-link';
import { probeEndpoint } from './endpoint/endpoint-probe';
import { resultText } from './hub/result-shaping';
import { callProblem, type ToolHub } from './hub/tool-hub';
import { forgetServerInSets, renameServerInSets, withServerTools, withToolSetting } from './hub/tool-set-edits';
import { discoverClients } from './import/discover-clients';
import type { ImportSessions } from './import/import-sessions';
import type { CallHistory } from './logs/call-history';
import type { LogBook, Logger } from './logs/log-book';
import type { CatalogueService } from './catalogue/catalogue-service';
import type { EndpointCatalogs } from './router/endpoint-catalogs';
import type { ChildServer } from './servers/child-server';
import type { StartGrace } from './servers/start-grace';
import type { LocalServerController } from './local-server/local-server-controller';
import type { BridgeHost } from './bridge';
import { toolSetCommandHandlers } from './tool-set-commands';
import { APP_VERSION } from './version';

/**
 * What the commands need of the bridge: its settings and the rooms it owns, and the few
 * orchestration steps a command may ask for (replace a link or a server, start one).
 */
export interface BridgeInternals {
  readonly settings: Settings;
  commit(next: Settings): void;
  state(): BridgeState;
  start(): void;
  stop(): Promise<void>;
  readonly hub: ToolHub;
  readonly history: CallHistory;
  readonly logBook: LogBook;
  readonly log: Logger;
  readonly imports: ImportSessions;
  readonly catalogs: EndpointCatalogs;
  readonly catalogue: CatalogueService;
  readonly localServer: LocalServerController;
  readonly startGrace: StartGrace;
  readonly store: SettingsStore;
  readonly host: BridgeHost;
  readonly options: { version?: string; testListWaitMs?: number };
  readonly links: ReadonlyMap<string, EndpointLink>;
  readonly servers: ReadonlyMap<string, ChildServer>;
  readonly serverStarts: ReadonlyMap<string, Promise<void>>;
  requireEndpoint(id: string): Settings['endpoints'][number];
  requireServer(name: string): ChildServer;
  replaceLink(id: string): Promise<void>;
  replaceServer(oldName: string, newName: string | undefined): Promise<void>;
  startServer(server: ChildServer): void;
  refuseOwnEntry(server: ServerSettings): void;
  queueStatus(): void;
}

/** The commands the bridge answers, whichever carrier brought them (validated by the bridge first). */
export function bridgeCommandHandlers(b: BridgeInternals): { [K in CommandName]: (input: never) => Promise<unknown> } {
  return {
    getState: async () => b.state(),
    getSettings: async () => redactSettings(b.settings),
    getCatalog: async () => b.hub.catalog(),
    start: async () => b.start(),
    stop: async () => b.stop(),

    addEndpoint: async (input: { name: string; url: string }) => {
      const endpoint = EndpointSettingsSchema.parse({ id: randomUUID(), name: input.name, url: input.url, enabled: true });
      b.commit({ ...b.settings, endpoints: [...b.settings.endpoints, endpoint] });
      await b.replaceLink(endpoint.id);
      return { id: endpoint.id, name: endpoint.name, enabled: endpoint.enabled };
    },
    updateEndpoint: async (input: { id: string; name?: string; url?: string; enabled?: boolean; toolSet?: string }) => {
      const current = b.requireEndpoint(input.id);
      const updated = {
        ...current,
        ...(input.name !== undefined ? { name: input.name } : {}),
        // A URL shown masked and sent back keeps its real token.
        ...(input.url !== undefined ? { url: restoreMaskedUrl(input.url, current.url) } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        // A new set reconnects the endpoint: xiaozhi may only read the tool list when a session starts.
        ...(input.toolSet !== undefined ? { toolSet: input.toolSet } : {}),
      };
      b.commit({ ...b.settings, endpoints: b.settings.endpoints.map((e) => (e.id === input.id ? updated : e)) });
      await b.replaceLink(input.id);
    },
    removeEndpoint: async (input: { id: string }) => {
      b.requireEndpoint(input.id);
      b.commit({ ...b.settings, endpoints: b.settings.endpoints.filter((e) => e.id !== input.id) });
      await b.replaceLink(input.id);
    },
    revealEndpointUrl: async (input: { id: string }) => b.requireEndpoint(input.id).url,
    testEndpoint: async (input: { id?: string; url?: string }) => {
      const url = input.url !== undefined ? EndpointSettingsSchema.shape.url.parse(input.url) : b.requireEndpoint(input.id as string).url;
      return probeEndpoint({
        url,
        hub: b.hub,
        log: b.logBook.logger('app'),
        maxMessageBytes: () => b.settings.limits.maxMessageBytes,
        version: b.options.version ?? APP_VERSION,
        connectTimeoutMs: b.settings.connection.connectTimeoutMs,
        listWaitMs: b.options.testListWaitMs ?? 10_000,
      });
    },
    setEndpointTools: async (input: { id: string; toolMode?: ToolMode; pinned?: string[] }) => {
      const current = b.requireEndpoint(input.id);
      const updated = {
        ...current,
        ...(input.toolMode ? { toolMode: input.toolMode } : {}),
        ...(input.pinned ? { pinned: input.pinned } : {}),
      };
      b.commit({ ...b.settings, endpoints: b.settings.endpoints.map((e) => (e.id === input.id ? updated : e)) });
      // The session stays up: the endpoint hears list_changed and reads the new list.
      b.links.get(input.id)?.notifyToolsChanged();
    },
    getServedTools: async (input: { id: string }) => b.catalogs.preview(b.requireEndpoint(input.id).id),
    searchTools: async (input: { query: string; limit?: number }) =>
      b.catalogs
        .router()
        .search(input.query, input.limit)
        .map(({ entry, score }) => ({ name: entry.name, server: entry.server, description: entry.description, score })),

    addServer: async (input: ServerSettings) => {
      b.refuseOwnEntry(input);
      if (b.servers.has(input.name)) throw new Error(`A server called "${input.name}" already exists.`);
      b.commit({ ...b.settings, servers: [...b.settings.servers, input] });
      await b.replaceServer(input.name, input.name);
    },
    updateServer: async (input: { name: string; server: ServerSettings }) => {
      const existing = b.settings.servers.find((s) => s.name === input.name);
      if (!existing) throw new Error(`No server is called "${input.name}".`);
      if (input.server.name !== input.name && b.servers.has(input.server.name)) {
        throw new Error(`A server called "${input.server.name}" already exists.`);
      }
      const server = restoreMaskedServer(input.server, existing);
      b.refuseOwnEntry(server);
      const next = renameServerInSets(
        { ...b.settings, servers: b.settings.servers.map((s) => (s.name === input.name ? server : s)) },
        input.name,
        server.name,
      );
      b.commit(next);
      await b.replaceServer(input.name, server.name);
    },
    removeServer: async (input: { name: string }) => {
      b.requireServer(input.name);
      // Its tool switches go with it, from every set: a new server of the same name starts fresh.
      b.commit(forgetServerInSets({ ...b.settings, servers: b.settings.servers.filter((s) => s.name !== input.name) }, input.name));
      await b.replaceServer(input.name, undefined);
    },
    startServer: async (input: { name: string }) => {
      const server = b.requireServer(input.name);
      b.startServer(server);
      await b.serverStarts.get(input.name);
    },
    stopServer: async (input: { name: string }) => b.requireServer(input.name).stop(),
    restartServer: async (input: { name: string }) => {
      const server = b.requireServer(input.name);
      await server.stop();
      b.startServer(server);
      await b.serverStarts.get(input.name);
    },

    setToolEnabled: async (input: { server: string; tool: string; enabled: boolean; toolSet?: string }) =>
      b.commit(withToolSetting(b.settings, input.toolSet ?? DEFAULT_TOOL_SET, input.server, input.tool, { enabled: input.enabled })),
    setServerToolsEnabled: async (input: { server: string; enabled: boolean; toolSet?: string }) => {
      const tools = b.requireServer(input.server).currentTools.map((tool) => tool.name);
      b.commit(withServerTools(b.settings, input.toolSet ?? DEFAULT_TOOL_SET, input.server, tools, input.enabled));
    },
    setToolDescription: async (input: { server: string; tool: string; description: string | null; toolSet?: string }) =>
      b.commit(
        withToolSetting(b.settings, input.toolSet ?? DEFAULT_TOOL_SET, input.server, input.tool, { description: input.description }),
      ),
    updatePreferences: async (input: {
      naming?: Settings['naming'];
      limits?: Partial<Settings['limits']>;
      connection?: Partial<Settings['connection']>;
      ui?: Partial<Settings['ui']>;
      updates?: { enabled?: boolean; mirrorUrl?: string | null };
    }) => {
      const next: Settings = {
        ...b.settings,
        naming: input.naming ?? b.settings.naming,
        limits: { ...b.settings.limits, ...input.limits },
        connection: { ...b.settings.connection, ...input.connection },
        ui: { ...b.settings.ui, ...input.ui },
        updates: mergeUpdates(b.settings.updates, input.updates),
      };
      b.commit(next);
      if (input.connection) for (const id of [...b.links.keys()]) await b.replaceLink(id);
    },

    callTool: async (input: { name: string; arguments?: Record<string, unknown> }) => {
      if (!b.hub.has(input.name)) await b.startGrace.settled();
      const started = performance.now();
      const result = await b.hub.call(input.name, input.arguments ?? {}, { caller: 'ui' });
      return {
        // What the window shows is redacted like everything else (the endpoint gets the tool's text as is).
        text: b.logBook.redact(resultText(result)),
        isError: result.isError === true,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        bytes: b.hub.responseBytes(result),
        ...(callProblem(result) ? { error: redactProblem(callProblem(result) as Problem, (text) => b.logBook.redact(text)) } : {}),
      };
    },
    getLogs: async (input: { limit?: number } | undefined) => b.logBook.entries(input?.limit),
    getHistory: async () => b.history.list(),
    getToolCounts: async () => b.history.countsByTool(),

    previewImport: async (input: { source: string; text: string }) => b.imports.preview(input.source, input.text, b.settings),
    previewImportFile: async (input: { path: string }) => b.imports.previewFile(input.path, b.settings),
    applyImport: async (input: Parameters<BridgeApi['applyImport']>[0]) => {
      const applied = b.imports.apply(input, b.settings);
      b.commit(applied.settings);
      for (const name of applied.changedServers) {
        await b.replaceServer(name, name);
      }
      for (const endpoint of b.settings.endpoints) if (!b.links.has(endpoint.id)) await b.replaceLink(endpoint.id);
      b.log.info(
        `imported: ${countOf(applied.result.addedServers.length, 'server')} added, ${applied.result.replacedServers.length} replaced, ${countOf(applied.result.addedEndpoints.length, 'endpoint')}, ${applied.result.skipped} skipped`,
      );
      return applied.result;
    },
    discoverClients: async () => discoverClients(),

    getCatalogue: async (input: { refresh?: 'never' | 'ifStale' | 'now' }) => b.catalogue.get(input.refresh),
    setModelscopeKey: async (input: { apiKey: string | null }) => {
      b.commit({ ...b.settings, modelscope: input.apiKey === null ? {} : { apiKey: input.apiKey } });
    },

    getHostInfo: async () => {
      const readOnly = b.store.readOnly;
      return { ...b.host.info(), version: b.options.version ?? APP_VERSION, ...(readOnly ? { readOnlyConfig: readOnly } : {}) };
    },
    setLaunchAtLogin: async (input: { enabled: boolean }) => {
      if (!b.host.setLaunchAtLogin) throw new Error('Launching at login is managed by the desktop app only.');
      await b.host.setLaunchAtLogin(input.enabled);
      b.queueStatus();
    },
    openLogsFolder: async () => {
      if (!b.host.openLogsFolder) throw new Error('There is no logs folder to open here.');
      await b.host.openLogsFolder();
    },
    getUpdateStatus: async () => b.host.updates?.status() ?? { state: 'unsupported', currentVersion: b.options.version ?? APP_VERSION },
    checkForUpdates: async () => {
      if (!b.host.updates) throw new Error('Updates are managed by the desktop app only.');
      return b.host.updates.check();
    },
    installUpdate: async () => {
      if (!b.host.updates) throw new Error('Updates are managed by the desktop app only.');
      await b.host.updates.install();
    },

    ...toolSetCommandHandlers({
      settings: () => b.settings,
      commit: (next) => b.commit(next),
      relink: async (ids) => {
        for (const id of ids) await b.replaceLink(id);
      },
      hub: b.hub,
      localServer: b.localServer,
      history: b.history,
      host: b.host,
    }),
  };
}

/** `mirrorUrl: null` removes the user's mirror (back to the default feed). */
function mergeUpdates(
  current: Settings['updates'],
  patch: { enabled?: boolean; mirrorUrl?: string | null } | undefined,
): Settings['updates'] {
  if (!patch) return current;
  const next: Settings['updates'] = { ...current, ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}) };
  if (patch.mirrorUrl === null) delete next.mirrorUrl;
  else if (patch.mirrorUrl !== undefined) next.mirrorUrl = patch.mirrorUrl;
  return next;
}
