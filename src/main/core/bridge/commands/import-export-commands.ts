import type { importExportCommands } from '../../../../shared/bridge-api';
import { countOf } from '../../../../shared/count-words';
import { problem } from '../../../../shared/problem';
import { discoverClients } from '../../import/discover-clients';
import { exportConfig } from '../../import/export-config';
import type { ImportSessions } from '../../import/import-sessions';
import type { EntryContext } from '../../local-server/client-entries';
import type { Logger } from '../../logs/log-book';
import type { EndpointFleet } from '../endpoint-fleet';
import type { ServerFleet } from '../server-fleet';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** What the import and export commands need of the bridge. */
export interface ImportExportCommandContext extends SettingsAccess {
  imports: Pick<ImportSessions, 'preview' | 'previewFile' | 'apply'>;
  servers: Pick<ServerFleet, 'replace'>;
  endpoints: Pick<EndpointFleet, 'has' | 'replace'>;
  log: Logger;
  /** An export as a client's entry names this app's local server. */
  entryContext(): EntryContext;
}

/** Other programs' configs in (previewed, then applied all or nothing), ours out. */
export function importExportCommandHandlers(c: ImportExportCommandContext): CommandHandlers<typeof importExportCommands> {
  return {
    previewImport: async (input) => c.imports.preview(input.source, input.text, c.settings()),
    previewImportFile: async (input) => c.imports.previewFile(input.path, c.settings()),
    applyImport: async (input) => {
      const applied = c.imports.apply(input, c.settings());
      c.commit(applied.settings);
      for (const name of applied.changedServers) {
        await c.servers.replace(name, name);
      }
      for (const endpoint of c.settings().endpoints) if (!c.endpoints.has(endpoint.id)) await c.endpoints.replace(endpoint.id);
      const r = applied.result;
      c.log.info(
        `imported: ${countOf(r.addedServers.length, 'server')} added, ${r.replacedServers.length} replaced, ${countOf(r.addedEndpoints.length, 'endpoint')}, ${r.skipped} skipped`,
        problem('log.imported', {
          added: r.addedServers.length,
          replaced: r.replacedServers.length,
          endpoints: r.addedEndpoints.length,
          skipped: r.skipped,
        }),
      );
      return applied.result;
    },
    discoverClients: async () => discoverClients(),
    /** Our servers for other tools, or this app's local server as an entry of a client's file. */
    exportConfig: async ({ format }) => exportConfig(c.settings(), format, c.entryContext),
  };
}
