import type { Translate } from '../../shared/i18n/translate';
import { own } from '../../shared/own';
import { DEFAULT_TOOL_SET, type Settings, type ToolSet } from '../../shared/settings';
import { LOCAL_CLIENT_NAMES } from '../../shared/tool-set-api';
import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';

const NO_SETS: ToolSet[] = [];

/** The default set goes by a name in the user's language; the others by the name they were given. */
export function toolSetName(set: { id: string; name: string }, t: Translate): string {
  return set.id === DEFAULT_TOOL_SET ? t('toolSets.default') : set.name;
}

/** The clients "Add to …" knows, always listed; other client ids appear once they have a choice. */
export function localClientIds(settings: Settings): string[] {
  return [...new Set([...Object.keys(LOCAL_CLIENT_NAMES), ...Object.keys(settings.localServer.clients)])];
}

/** The set a local client serves: its own choice, or the shared one. */
export function clientToolSet(settings: Settings, client: string): string {
  return own(settings.localServer.clients, client)?.toolSet ?? settings.localServer.toolSet;
}

/** Who serves each set: endpoints by name, and (while the local server is on) apps. */
export function toolSetUsers(settings: Settings, id: string): string[] {
  const endpoints = settings.endpoints.filter((e) => (e.toolSet ?? DEFAULT_TOOL_SET) === id).map((e) => e.name);
  if (!settings.localServer.enabled) return endpoints;
  const clients = localClientIds(settings)
    .filter((client) => clientToolSet(settings, client) === id)
    .map((client) => own(LOCAL_CLIENT_NAMES as Record<string, string>, client) ?? client);
  return [...endpoints, ...clients];
}

/** A drop-down of the tool sets. */
export function ToolSetPicker(props: { value: string; onChange: (id: string) => void; label: string; id?: string; disabled?: boolean }) {
  const { store, t } = useApp();
  const sets = useStore(store, (d) => d.settings?.toolSets ?? NO_SETS);
  return (
    <select
      id={props.id}
      className="toolset-picker"
      aria-label={props.id ? undefined : props.label}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value)}
    >
      {sets.map((set) => (
        <option key={set.id} value={set.id}>
          {toolSetName(set, t)}
        </option>
      ))}
    </select>
  );
}
