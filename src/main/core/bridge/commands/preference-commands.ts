import type { preferenceCommands } from '../../../../shared/bridge-api';
import type { Settings } from '../../../../shared/settings';
import type { Logger } from '../../logs/log-book';
import type { EndpointFleet } from '../endpoint-fleet';
import type { ServerFleet } from '../server-fleet';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** What the preference commands need of the bridge. */
export interface PreferenceCommandContext extends SettingsAccess {
  /** New connection settings take effect on new links. */
  endpoints: Pick<EndpointFleet, 'replaceAll'>;
  /** Servers that failed for want of the old download source try the new one. */
  servers: Pick<ServerFleet, 'all' | 'restart'>;
  log: Pick<Logger, 'warn'>;
}

/** Failures a download source out of reach (or sending what it should not) causes: another source may cure them. */
const SOURCE_FAILURES = new Set(['server.registryUnreachable', 'server.runtimeDownloadFailed', 'server.runtimeMismatch']);

/** Naming, limits, connection, window, update and download-source preferences: only what is given changes. */
export function preferenceCommandHandlers(c: PreferenceCommandContext): CommandHandlers<typeof preferenceCommands> {
  return {
    updatePreferences: async (input) => {
      const settings = c.settings();
      const next: Settings = {
        ...settings,
        naming: input.naming ?? settings.naming,
        limits: { ...settings.limits, ...input.limits },
        connection: { ...settings.connection, ...input.connection },
        ui: { ...settings.ui, ...input.ui },
        updates: mergeUpdates(settings.updates, input.updates),
        mirrors: input.mirrors ?? settings.mirrors,
      };
      c.commit(next);
      if (input.connection) await c.endpoints.replaceAll();
      if (input.mirrors && JSON.stringify(input.mirrors) !== JSON.stringify(settings.mirrors)) retryWithNewSource(c);
    },
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

/**
 * A walkthrough switched the download source and the card still named the old one as in use until 重试 was
 * pressed: an enabled server that failed (or waits to retry) because the source could not be reached tries
 * the new one now. Not awaited: the Settings page's save does not wait for downloads.
 */
function retryWithNewSource(c: PreferenceCommandContext): void {
  for (const server of c.servers.all()) {
    const status = server.status();
    if (!server.config.enabled || (status.state !== 'failed' && status.state !== 'restarting')) continue;
    if (!SOURCE_FAILURES.has(status.lastErrorCause?.code ?? '')) continue;
    c.servers
      .restart(server.name)
      .catch((error: unknown) => c.log.warn(`server ${server.name}: retry with the new download source: ${String(error)}`));
  }
}
