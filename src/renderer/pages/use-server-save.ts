import { useState } from 'react';

import type { ServerSettings } from '../../shared/settings';
import { useApp } from '../app-context';

/**
 * Saving a server from an editor dialog (MCP server or web service): add it, or replace the one named `previousName`,
 * then say so and close; a refusal is shown as a toast and the dialog stays open. `busy` is true while it saves.
 * `onClose` is told the name saved; `added` is what a new server's toast says (the catalogue's: it is starting).
 */
export function useServerSave(
  previousName: string | undefined,
  onClose: (name: string) => void,
  added: 'servers.added' | 'add.addedStarting' = 'servers.added',
) {
  const { store, t, toast } = useApp();
  const [busy, setBusy] = useState(false);
  const save = async (server: ServerSettings) => {
    setBusy(true);
    try {
      if (previousName !== undefined) await store.api.updateServer({ name: previousName, server });
      else await store.api.addServer(server);
      await store.refreshSettings();
      toast(previousName !== undefined ? t('servers.saved', { name: server.name }) : t(added, { name: server.name }));
      onClose(server.name);
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  return { busy, save };
}
