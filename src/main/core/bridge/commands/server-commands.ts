import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

import type { serverCommands } from '../../../../shared/bridge-api';
import { problem } from '../../../../shared/problem';
import type { ServerSettings } from '../../../../shared/settings';
import { isOwnEntry } from '../../config/own-entry';
import { forgetServerInSets, renameServerInSets } from '../../hub/tool-set-edits';
import type { LocalServerController } from '../../local-server/local-server-controller';
import { redactUrl } from '../../logs/redact';
import type { SignIns } from '../../oauth/sign-ins';
import { ProblemError } from '../../problems/server-problems';
import { restoreMaskedServer } from '../../secrets/bridge-secrets';
import { outlineOf, readOpenApi } from '../../services/openapi-document';
import { ServiceHttp } from '../../services/service-http';
import type { ServerFleet } from '../server-fleet';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** What the server commands need of the bridge. */
export interface ServerCommandContext extends SettingsAccess {
  servers: Pick<ServerFleet, 'has' | 'require' | 'replace' | 'start' | 'stop' | 'restart'>;
  /** Where this app's own local server listens, so that it is never added as one of its servers. */
  localServer: Pick<LocalServerController, 'status'>;
  signIns: Pick<SignIns, 'start'>;
  /** The config file's folder: a relative OpenAPI document path is read from there, as the service does. */
  configDir?: string | undefined;
}

/** How long reading a document for the dialog may take (a large document over a slow link). */
const READ_OPENAPI_TIMEOUT_MS = 30_000;

/** The MCP servers: add, change, remove, start, stop, restart. */
export function serverCommandHandlers(c: ServerCommandContext): CommandHandlers<typeof serverCommands> {
  /** A server that is this app itself would serve its own tools back to it, in a loop. */
  const refuseOwnEntry = (server: ServerSettings): void => {
    const running = c.localServer.status().url;
    const ports = [c.settings().localServer.port, ...(running ? [Number(new URL(running).port)] : [])];
    if (ports.some((port) => isOwnEntry(server, port))) {
      throw new Error(`"${server.name}" is Xiaozhi Tray's own local MCP server; adding it would serve the app's tools back to itself.`);
    }
  };

  return {
    addServer: async (input) => {
      refuseOwnEntry(input);
      if (c.servers.has(input.name)) throw new Error(`A server called "${input.name}" already exists.`);
      c.commit({ ...c.settings(), servers: [...c.settings().servers, input] });
      await c.servers.replace(input.name, input.name);
    },
    updateServer: async (input) => {
      const settings = c.settings();
      const existing = settings.servers.find((s) => s.name === input.name);
      if (!existing) throw new Error(`No server is called "${input.name}".`);
      if (input.server.name !== input.name && c.servers.has(input.server.name)) {
        throw new Error(`A server called "${input.server.name}" already exists.`);
      }
      const server = restoreMaskedServer(input.server, existing);
      refuseOwnEntry(server);
      const next = renameServerInSets(
        { ...settings, servers: settings.servers.map((s) => (s.name === input.name ? server : s)) },
        input.name,
        server.name,
      );
      c.commit(next);
      await c.servers.replace(input.name, server.name);
    },
    readOpenApi: async ({ spec }) => {
      try {
        const { doc } = await readOpenApi(spec, {
          http: new ServiceHttp('OpenAPI'),
          timeoutMs: READ_OPENAPI_TIMEOUT_MS,
          configDir: c.configDir,
        });
        return outlineOf(doc);
      } catch (error) {
        if (error instanceof ProblemError) return { problem: error.problem };
        if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
          return {
            problem: problem('service.noAnswer', { platform: 'OpenAPI', url: redactUrl(spec), seconds: READ_OPENAPI_TIMEOUT_MS / 1000 }),
          };
        throw error;
      }
    },
    removeServer: async (input) => {
      c.servers.require(input.name);
      // Its tool switches go with it, from every set: a new server of the same name starts fresh.
      c.commit(forgetServerInSets({ ...c.settings(), servers: c.settings().servers.filter((s) => s.name !== input.name) }, input.name));
      await c.servers.replace(input.name, undefined);
    },
    startServer: async (input) => c.servers.start(input.name),
    stopServer: async (input) => c.servers.stop(input.name),
    restartServer: async (input) => c.servers.restart(input.name),
    signIn: (input) =>
      c.signIns.start(input.name).catch((error: unknown) => {
        // Said on the card in the reader's language: an error crosses to the window as English text only.
        if (error instanceof ProblemError) return { problem: error.problem };
        throw error;
      }),
  };
}
