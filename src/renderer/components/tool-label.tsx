import { useMemo } from 'react';

import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';
import { useServerTitle } from './server-title';

/** A tool as a person reads it anywhere in the window: the name xiaozhi knows it by, and the server it comes from. */
export function ToolLabel({ name, server }: { name: string; server: string | undefined }) {
  const { t } = useApp();
  const title = useServerTitle();
  return (
    <>
      <span className="mono">{name}</span>
      {server ? <span className="small muted"> · {t('tools.from', { server: title(server) })}</span> : null}
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
