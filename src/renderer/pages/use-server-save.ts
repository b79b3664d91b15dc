import { useState } from 'react';

import type { ServerSettings } from '../../shared/settings';
import { useApp } from '../app-context';

/**
 * Saving a server from an editor dialog (MCP server or web service): add it, or replace the one named `previousName`,
 * then say so and close; a refusal is shown as a toast and the dialog stays open. `busy` is true while it saves.
 * `onClose` is told the name saved; `added` is what a new server's toast says (the catalogue's: it is starting);
 * `shownAs`, the name the toast gives it (a catalogue server's title, not its name: "本机文件", not "filesystem").
 */
export function useServerSave(
  previousName: string | undefined,
  onClose: (name: string) => void,
  added: 'servers.added' | 'add.addedStarting' = 'servers.added',
) {
  const { store, t, toast } = useApp();
  const [busy, setBusy] = useState(false);
  const save = async (server: ServerSettings, shownAs: string = server.name) => {
    setBusy(true);
    try {
      if (previousName !== undefined) await store.api.updateServer({ name: previousName, server });
      else await store.api.addServer(server);
      await store.refreshSettings();
      toast(previousName !== undefined ? t('servers.saved', { name: shownAs }) : t(added, { name: shownAs }));
      onClose(server.name);
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  return { busy, save };
}
