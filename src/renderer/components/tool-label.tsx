import { useMemo } from 'react';

import type { MessageKey } from '../../shared/i18n/translate';
import { RESERVED_SERVER_NAME } from '../../shared/settings';
import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';
import { useServerTitle } from './server-title';

/** The app's own tools (the router's two and the built-in ones) in a person's words. */
const APP_TOOLS = new Map<string, MessageKey>([
  ['find_tools', 'names9.appTool.find_tools'],
  ['call_tool', 'names9.appTool.call_tool'],
  ['confirm_action', 'names9.appTool.confirm_action'],
  ['task_status', 'names9.appTool.task_status'],
  ['cancel_task', 'names9.appTool.cancel_task'],
]);

/**
 * A tool as a person reads it anywhere in the window: the name xiaozhi knows it by, and the server it
 * comes from. The app's own tools (the router's, recorded with no server, and the built-in server's)
 * get plain words first, their exact name small beside, and "built into this app" as their source.
 */
export function ToolLabel({ name, server }: { name: string; server: string | undefined }) {
  const { t } = useApp();
  const title = useServerTitle();
  const own = !server || server === RESERVED_SERVER_NAME;
  const plain = own ? APP_TOOLS.get(name) : undefined;
  // "本应用自带" on its own: "来自 本应用自带" would read as a place.
  const from = own && (plain || server) ? t('tools.builtIn') : server ? t('tools.from', { server: title(server) }) : undefined;
  return (
    <>
      {plain ? <span>{t(plain)} </span> : null}
      <span className={plain ? 'mono small muted' : 'mono'}>{name}</span>
      {from ? <span className="small muted"> · {from}</span> : null}
    </>
  );
}

/**
 * The name xiaozhi is served a server's tool by (prefixed when two servers have a tool of that name),
 * from the tools served now; its own name when it is not served any more.
 */
export function useServedName(): (server: string, tool: string) => string {
  const { store } = useApp();
  const catalog = useStore(store, (d) => d.catalog);
  return useMemo(() => {
    const names = new Map(catalog.map((c) => [`${c.server}\u0000${c.originalName}`, c.name]));
    return (server, tool) => names.get(`${server}\u0000${tool}`) ?? tool;
  }, [catalog]);
}
