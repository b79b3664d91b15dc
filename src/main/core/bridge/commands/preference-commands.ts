import type { preferenceCommands } from '../../../../shared/bridge-api';
import type { Settings } from '../../../../shared/settings';
import type { EndpointFleet } from '../endpoint-fleet';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** What the preference commands need of the bridge. */
export interface PreferenceCommandContext extends SettingsAccess {
  /** New connection settings take effect on new links. */
  endpoints: Pick<EndpointFleet, 'replaceAll'>;
}

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
