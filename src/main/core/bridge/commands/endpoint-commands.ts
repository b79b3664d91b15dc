import { randomUUID } from 'node:crypto';

import type { endpointCommands } from '../../../../shared/bridge-api';
import { cleanEndpointUrl, sameEndpointAs } from '../../../../shared/endpoint-url';
import { EndpointSettingsSchema } from '../../../../shared/settings';
import { probeEndpoint } from '../../endpoint/endpoint-probe';
import type { ToolHub } from '../../hub/tool-hub';
import type { Logger } from '../../logs/log-book';
import { restoreMaskedUrl } from '../../secrets/bridge-secrets';
import type { EndpointCatalogs } from '../../serving/endpoint-catalogs';
import { APP_VERSION } from '../../system/version';
import type { EndpointFleet } from '../endpoint-fleet';
import { type CommandHandlers, requireEndpoint, type SettingsAccess } from './command-handlers';

/** What the endpoint commands need of the bridge. */
export interface EndpointCommandContext extends SettingsAccess {
  endpoints: Pick<EndpointFleet, 'replace' | 'notifyToolsChanged' | 'connectedLink'>;
  catalogs: Pick<EndpointCatalogs, 'preview' | 'router'>;
  /** "Test connection" serves the default set's tools to the endpoint it probes. */
  hub: ToolHub;
  log: Logger;
  version?: string;
  /** How long "Test connection" waits for xiaozhi to ask for the tools. */
  testListWaitMs?: number;
}

/** Endpoints: add, change, remove, reveal, test; their tool mode; what each is served. */
export function endpointCommandHandlers(c: EndpointCommandContext): CommandHandlers<typeof endpointCommands> {
  return {
    addEndpoint: async (input) => {
      // Pasted into the window: a line a terminal wrapped is joined (a file's line break is refused).
      const cleaned = cleanEndpointUrl(input.url, { joinLines: true });
      const url = cleaned.ok ? cleaned.url : input.url;
      const endpoint = EndpointSettingsSchema.parse({ id: randomUUID(), name: input.name, url, enabled: true });
      c.commit({ ...c.settings(), endpoints: [...c.settings().endpoints, endpoint] });
      await c.endpoints.replace(endpoint.id);
      return { id: endpoint.id, name: endpoint.name, enabled: endpoint.enabled };
    },
    updateEndpoint: async (input) => {
      const current = requireEndpoint(c.settings(), input.id);
      const updated = {
        ...current,
        ...(input.name !== undefined ? { name: input.name } : {}),
        // A URL shown masked and sent back keeps its real token.
        ...(input.url !== undefined ? { url: restoreMaskedUrl(input.url, current.url) } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        // A new set reconnects the endpoint: xiaozhi may only read the tool list when a session starts.
        ...(input.toolSet !== undefined ? { toolSet: input.toolSet } : {}),
        ...(input.patience !== undefined && input.patience !== null ? { patience: input.patience } : {}),
      };
      if (input.patience === null) delete updated.patience;
      c.commit({ ...c.settings(), endpoints: c.settings().endpoints.map((e) => (e.id === input.id ? updated : e)) });
      // The patience is read at each call: a change of it alone needs no reconnect.
      const { id: _id, patience: _patience, ...rest } = input;
      if (Object.values(rest).some((value) => value !== undefined)) await c.endpoints.replace(input.id);
    },
    removeEndpoint: async (input) => {
      requireEndpoint(c.settings(), input.id);
      c.commit({ ...c.settings(), endpoints: c.settings().endpoints.filter((e) => e.id !== input.id) });
      await c.endpoints.replace(input.id);
    },
    revealEndpointUrl: async (input) => requireEndpoint(c.settings(), input.id).url,
    checkEndpointUrl: async (input) => {
      const cleaned = cleanEndpointUrl(input.url, { joinLines: true });
      if (!cleaned.ok) return { removed: cleaned.removed, refused: cleaned.reason };
      const same = sameEndpointAs(cleaned.url, c.settings().endpoints, input.id);
      return { removed: cleaned.removed, ...(same ? { sameAs: { id: same.id, name: same.name } } : {}) };
    },
    testEndpoint: async (input) => {
      const url =
        input.url !== undefined ? EndpointSettingsSchema.shape.url.parse(input.url) : requireEndpoint(c.settings(), input.id as string).url;
      return probeEndpoint({
        url,
        hub: c.hub,
        log: c.log,
        maxMessageBytes: () => c.settings().limits.maxMessageBytes,
        version: c.version ?? APP_VERSION,
        connectTimeoutMs: c.settings().connection.connectTimeoutMs,
        listWaitMs: c.testListWaitMs ?? 10_000,
        // A saved endpoint that is connected is asked through its own connection (a second one would push it out).
        link: input.id !== undefined ? c.endpoints.connectedLink(input.id) : undefined,
      });
    },
    setEndpointTools: async (input) => {
      const current = requireEndpoint(c.settings(), input.id);
      const updated = {
        ...current,
        ...(input.toolMode ? { toolMode: input.toolMode } : {}),
        ...(input.pinned ? { pinned: input.pinned } : {}),
      };
      c.commit({ ...c.settings(), endpoints: c.settings().endpoints.map((e) => (e.id === input.id ? updated : e)) });
      // The session stays up: the endpoint hears list_changed and reads the new list.
      c.endpoints.notifyToolsChanged(input.id);
    },
    getServedTools: async (input) => c.catalogs.preview(requireEndpoint(c.settings(), input.id).id),
    searchTools: async (input) =>
      c.catalogs
        .router()
        .search(input.query, input.limit)
        .map(({ entry, score }) => ({ name: entry.name, server: entry.server, description: entry.description, score })),
  };
}
