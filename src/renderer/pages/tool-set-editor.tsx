import { useEffect, useId, useMemo, useState } from 'react';

import { own } from '../../shared/own';
import { DEFAULT_TOOL_SET, type ServerSettings, type ToolSet } from '../../shared/settings';
import type { CatalogTool } from '../../shared/status';
import { useApp } from '../app-context';
import { useServerTitle } from '../components/server-title';
import { ToolDescription } from '../components/tool-description';
import { groupByServer, ToolGroupHeader, toolGroupLabel, ToolNames, ToolSwitch } from '../components/tool-group';
import { Button, EmptyState } from '../components/ui';
import { useCommand } from '../components/use-command';
import { useStore } from '../store/bridge-store';

const NO_SERVERS: ServerSettings[] = [];

/**
 * One set's catalog, fetched again whenever tools or settings change. Kept with the id it was fetched
 * for: right after another set is chosen, the one chosen before's list is not shown under its name.
 */
function useToolSetCatalog(id: string): CatalogTool[] | undefined {
  const { store } = useApp();
  const tick = useStore(store, (d) => d.catalog);
  const settings = useStore(store, (d) => d.settings);
  const [catalog, setCatalog] = useState<{ id: string; tools: CatalogTool[] } | undefined>();
  useEffect(() => {
    let live = true;
    store.api.getToolSetCatalog({ id }).then(
      (tools) => live && setCatalog({ id, tools }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [store, id, tick, settings]);
  // Undefined until this set's list has come (nothing shown, rather than "no tools" or another set's).
  return catalog?.id === id ? catalog.tools : undefined;
}

const NO_TOOLS: CatalogTool[] = [];

/** Which servers a set serves: all of them (now and later), or the ones ticked. */
function ServerChoice({ set }: { set: ToolSet }) {
  const { store, t } = useApp();
  const run = useCommand();
  const servers = useStore(store, (d) => d.settings?.servers ?? NO_SERVERS);
  const states = useStore(store, (d) => d.state.servers);
  const name = useId();
  const chosen = set.servers === 'all' ? servers.map((s) => s.name) : set.servers;
  const update = (next: 'all' | string[]) => void run(() => store.api.updateToolSet({ id: set.id, servers: next }));
  if (set.id === DEFAULT_TOOL_SET) return <p className="small muted">{t('toolSets.defaultHint')}</p>;
  return (
    <div className="toolset-servers">
      <label className="radio">
        <input type="radio" name={name} checked={set.servers === 'all'} onChange={() => update('all')} />
        {t('toolSets.allServers')}
      </label>
      <label className="radio">
        <input type="radio" name={name} checked={set.servers !== 'all'} onChange={() => update(chosen)} />
        {t('toolSets.someServers')}
      </label>
      {servers.length === 0 ? <p className="small muted">{t('toolSets.noServers')}</p> : null}
      <ul className="toolset-server-list">
        {servers.map((server) => {
          const running = states.find((s) => s.name === server.name)?.state === 'running';
          return (
            <li key={server.name}>
              <label className={set.servers === 'all' ? 'check is-implied' : 'check'}>
                <input
                  type="checkbox"
                  checked={chosen.includes(server.name)}
                  disabled={set.servers === 'all'}
                  onChange={(e) => update(e.target.checked ? [...chosen, server.name] : chosen.filter((n) => n !== server.name))}
                />
                <span>{server.name}</span>
                {running ? null : <span className="small muted">· {t('toolSets.notRunning')}</span>}
              </label>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A tool's description in this set: the server's, or the set's own wording. */
function DescriptionEditor({ set, tool, onDone }: { set: ToolSet; tool: CatalogTool; onDone: () => void }) {
  const { store, t } = useApp();
  const run = useCommand();
  const [text, setText] = useState(tool.description);
  const custom = own(own(set.tools, tool.server), tool.originalName)?.description !== undefined;
  const save = (description: string | null) =>
    void run(() => store.api.setToolDescription({ toolSet: set.id, server: tool.server, tool: tool.originalName, description })).then(
      (ok) => ok && onDone(),
    );
  return (
    <div className="description-editor">
      <textarea
        aria-label={t('toolSets.description', { name: tool.name })}
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoFocus
      />
      <div className="toolbar">
        <Button small kind="primary" onClick={() => save(text)}>
          {t('common.save')}
        </Button>
        <Button small onClick={onDone}>
          {t('common.cancel')}
        </Button>
        {custom ? (
          <Button small kind="ghost" onClick={() => save(null)}>
            {t('toolSets.resetDescription')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** Per-tool switches of one set, grouped by server. */
function ToolSwitches({ set, catalog }: { set: ToolSet; catalog: CatalogTool[] | undefined }) {
  const { store, t } = useApp();
  const title = useServerTitle();
  const run = useCommand();
  const [editing, setEditing] = useState<string | undefined>();
  const groups = useMemo(() => groupByServer(catalog ?? NO_TOOLS), [catalog]);
  if (catalog === undefined) return null;
  if (catalog.length === 0) return <EmptyState title={t('toolSets.noTools')} />;
  return (
    <>
      {groups.map(([server, tools]) => (
        <section className="tool-group" key={server} aria-label={toolGroupLabel(server, t, title)}>
          <ToolGroupHeader
            server={server}
            tools={tools}
            heading="h4"
            onAllChange={(enabled) => void run(() => store.api.setServerToolsEnabled({ toolSet: set.id, server, enabled }))}
          />
          <ul className="tool-list">
            {tools.map((tool) => (
              <li key={tool.name} className={`tool${tool.enabled ? '' : ' is-off'}`}>
                <ToolSwitch
                  tool={tool}
                  onChange={(enabled) =>
                    void run(() => store.api.setToolEnabled({ toolSet: set.id, server: tool.server, tool: tool.originalName, enabled }))
                  }
                />
                <div className="tool-main">
                  <div className="card-row">
                    <ToolNames tool={tool} />
                    {own(own(set.tools, tool.server), tool.originalName)?.description !== undefined ? (
                      <span className="tag">{t('toolSets.customDescription')}</span>
                    ) : null}
                  </div>
                  {editing === tool.name ? (
                    <DescriptionEditor set={set} tool={tool} onDone={() => setEditing(undefined)} />
                  ) : (
                    <ToolDescription tool={tool} />
                  )}
                </div>
                {editing === tool.name ? null : (
                  <Button
                    small
                    kind="ghost"
                    onClick={() => setEditing(tool.name)}
                    aria-label={`${t('toolSets.editDescription')}: ${tool.name}`}
                    title={t('toolSets.editDescription')}
                  >
                    ✎
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

/** Fill a set: its servers, then the switches and descriptions of their tools. */
export function ToolSetEditor({ set }: { set: ToolSet }) {
  const { t } = useApp();
  const catalog = useToolSetCatalog(set.id);
  return (
    <>
      <h3>{t('toolSets.servers')}</h3>
      <ServerChoice set={set} />
      <h3 className="toolset-tools-title">{t('toolSets.tools')}</h3>
      <ToolSwitches set={set} catalog={catalog} />
    </>
  );
}
