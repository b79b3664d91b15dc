import { useState } from 'react';

import { serverFromEntry, valuesFromServer } from '../../../shared/catalogue';
import type { McpServerSettings, ServerSettings } from '../../../shared/settings';
import { useApp } from '../../app-context';
import { useStore } from '../../store/bridge-store';
import { ServerEditor } from '../server-editor';
import { useServerSave } from '../use-server-save';
import { useCatalogueEntry } from './use-catalogue-entry';
import { ValuesStep } from './values-step';

/**
 * Edit on an MCP server's card. A server added from the catalogue gets the same plain step it was
 * added with, its values filled in (Save saves and restarts it), the developer form one click away;
 * a server that is not from the catalogue, or was changed by hand beyond what its entry says (another
 * argument, a working folder…), gets the developer form.
 */
export function ServerEdit(props: { server: McpServerSettings; existingNames: string[]; onClose: () => void }) {
  const { server } = props;
  const { store, language } = useApp();
  const held = useStore(store, (d) => d.settings?.servers ?? []);
  const entry = useCatalogueEntry(server.catalogue);
  const [advanced, setAdvanced] = useState<ServerSettings | undefined>();
  const { busy, save } = useServerSave(server.name, props.onClose);
  if (entry === undefined) return null;
  const values = entry ? valuesFromServer(entry, server) : undefined;
  if (advanced || !entry || !values) {
    return <ServerEditor server={advanced ?? server} existingNames={props.existingNames} onClose={props.onClose} />;
  }
  // Its other settings (switch, timeout, how its tools run) stay as they are; only what the values make changes.
  const build = (v: Record<string, string>) =>
    ({ ...server, ...serverFromEntry(entry, v, server.name), enabled: server.enabled }) as ServerSettings;
  return (
    <ValuesStep
      entry={entry}
      editing={{ name: server.name, values }}
      build={build}
      held={held}
      busy={busy}
      onClose={props.onClose}
      onAdd={(next) => void save(next, language === 'zh-CN' ? entry.title.zh : entry.title.en)}
      onAdvanced={setAdvanced}
    />
  );
}
