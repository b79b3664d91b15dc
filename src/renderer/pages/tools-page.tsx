import { useMemo, useState } from 'react';

import { sentences } from '../../shared/i18n/translate';
import { own } from '../../shared/own';
import { RESERVED_SERVER_NAME, type ServerSettings } from '../../shared/settings';
import type { CallCount, CatalogTool } from '../../shared/status';
import { useApp } from '../app-context';
import { PagePanels } from '../components/page-panels';
import { defaultToolPolicy, PolicyPicker } from '../components/policy-picker';
import { useServerTitle } from '../components/server-title';
import { ToolDescription } from '../components/tool-description';
import { groupByServer, ToolGroupHeader, toolGroupLabel, ToolNames, ToolSwitch } from '../components/tool-group';
import { Button, EmptyState, Notice } from '../components/ui';
import { useCommand } from '../components/use-command';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';
import { ToolDescriptionDialog } from './tool-description-dialog';
import { TryToolDialog } from './try-tool-dialog';
import { ServerLinks, serversLink } from './xiaozhi-status';

/** A tool's calls since the app started, counted as Activity counts them: an answer that is an error message apart. */
function CallCountLine({ count }: { count: CallCount | undefined }) {
  const { t } = useApp();
  if (!count) return null;
  return (
    <span className="small muted">
      {/* Since this start: Activity counts a day or a week, kept across restarts; the two must not read as one number. */}
      {t('tools.callsSinceStart', { count: count.ok + count.failed + count.errorText })}
      {count.failed > 0 ? <span className="error-text"> · {t('tools.failedCalls', { count: count.failed })}</span> : null}
      {count.errorText > 0 ? <span className="warn-text"> · {t('activity.errorTextCount', { count: count.errorText })}</span> : null}
    </span>
  );
}

/** A tool's voice policy, its default named from its server's setting or its destructiveHint. */
function ToolPolicyPicker(props: { tool: CatalogTool; server: ServerSettings | undefined; run: (action: Promise<unknown>) => void }) {
  const { store, t } = useApp();
  const { tool, server } = props;
  return (
    <PolicyPicker
      label={t('policy.toolLabel', { name: tool.name })}
      value={own(server?.toolPolicies, tool.originalName)}
      defaultText={t('policy.default', { policy: t(`policy.${defaultToolPolicy(server, tool)}`) })}
      onChange={(policy) => props.run(store.api.setToolPolicy({ server: tool.server, tool: tool.originalName, policy }))}
    />
  );
}

export function ToolsPage() {
  const { store, t, language } = useApp();
  const title = useServerTitle();
  const catalog = useStore(store, (d) => d.catalog);
  const summary = useStore(store, (d) => d.state.catalog);
  const limit = useStore(store, (d) => d.settings?.limits.maxMessageBytes ?? 8192);
  const counts = useStore(store, (d) => d.counts);
  const servers = useStore(store, (d) => d.state.servers);
  const serverSettings = useStore(store, (d) => d.settings?.servers);
  // Served in search mode: xiaozhi sees find_tools and call_tool, not this list; said first, with why.
  const searching = useStore(store, (d) => d.state.endpoints.find((e) => e.served?.mode === 'router')?.served);
  const missing = servers.filter((x) => x.enabled && (x.state === 'failed' || x.state === 'restarting'));
  const [query, setQuery] = useState('');
  const [trying, setTrying] = useState<CatalogTool | undefined>();
  const [describing, setDescribing] = useState<CatalogTool | undefined>();
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const match = (tool: CatalogTool) =>
      !q || [tool.name, tool.originalName, tool.description, tool.server].some((s) => s.toLowerCase().includes(q));
    return groupByServer(catalog.filter(match));
  }, [catalog, query]);
  const appListed = catalog.filter((c) => c.server === RESERVED_SERVER_NAME).length;
  const appTools = summary.appTools ?? 0;
  const command = useCommand();
  // The command shows its own failure (a toast): nothing is left to wait for here.
  const run = (action: Promise<unknown>) => void command(() => action);

  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('nav.tools')}</h1>
        <input
          type="search"
          className="search"
          placeholder={t('tools.search')}
          aria-label={t('tools.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {searching ? (
        <p className="tools-search-mode">
          {searching.chosen === 'router'
            ? sentences(language, t('plain.serving.search'), t('tools.searchMode.chosen'))
            : sentences(language, t('plain.serving.autoSearch'), t('tools.searchMode.auto'))}
        </p>
      ) : null}
      <PagePanels />
      <div className="muted small tools-summary">
        {/* The user's tools, as the overview counts them ("tools provided"); the app's own are said apart. */}
        {t('tools.summary', { count: summary.toolCount - appTools, total: catalog.length - appListed })}{' '}
        {appListed > 0 ? t('tools.appOwn', { count: appListed }) : null}{' '}
        {/* Sizes and pages are for those who ask: most people never need them. */}
        <details>
          <summary>{t('plain.details')}</summary>
          {t('tools.summarySize', { size: formatBytes(summary.bytes), pages: summary.pages, limit: formatBytes(limit) })}
        </details>
      </div>
      {missing.length > 0 ? (
        // A server that is not running lists no tools: say whose tools are missing here, and where to look.
        <Notice kind={missing.some((m) => m.state === 'failed') ? 'error' : 'warn'}>
          {t('tools.missingFrom')}
          <ServerLinks names={missing.map((m) => m.name)} />
        </Notice>
      ) : null}
      {catalog.length === 0 ? (
        <EmptyState title={t('tools.none')}>
          <a href={serversLink({ add: true })}>{t('checklist.openCatalogue')}</a>
        </EmptyState>
      ) : null}
      {catalog.length > 0 && groups.length === 0 ? (
        <EmptyState title={t('tools.noMatch', { query: query.trim() })}>
          <Button small onClick={() => setQuery('')}>
            {t('common.clearFilters')}
          </Button>
        </EmptyState>
      ) : null}
      {groups.map(([server, tools]) => (
        <section className="tool-group" key={server} aria-label={toolGroupLabel(server, t, title)}>
          <ToolGroupHeader
            server={server}
            tools={tools}
            heading="h2"
            onAllChange={(enabled) => void run(store.api.setServerToolsEnabled({ server, enabled }))}
          />
          {server === RESERVED_SERVER_NAME ? (
            <p className="tool-group-policy small muted">{t('tools.builtInHint')}</p>
          ) : (
            <div className="tool-group-policy small">
              <span className="muted">{t('policy.serverCaption')}</span>{' '}
              <PolicyPicker
                label={t('policy.serverLabel', { server })}
                value={serverSettings?.find((s) => s.name === server)?.toolPolicy}
                defaultText={t('policy.perTool')}
                onChange={(policy) => void run(store.api.setToolPolicy({ server, policy }))}
              />
            </div>
          )}
          <ul className="tool-list">
            {tools.map((tool) => (
              <li key={tool.name} className={`tool${tool.enabled ? '' : ' is-off'}`}>
                <ToolSwitch
                  tool={tool}
                  onChange={(enabled) => void run(store.api.setToolEnabled({ server: tool.server, tool: tool.originalName, enabled }))}
                />
                <div className="tool-main">
                  <div className="card-row">
                    <ToolNames tool={tool} />
                    <CallCountLine count={own(own(counts, tool.server), tool.originalName)} />
                    {tool.originalDescription !== undefined ? <span className="tag">{t('tools.edited')}</span> : null}
                  </div>
                  <ToolDescription tool={tool} />
                </div>
                {tool.server === RESERVED_SERVER_NAME ? null : (
                  <ToolPolicyPicker tool={tool} server={serverSettings?.find((s) => s.name === tool.server)} run={run} />
                )}
                <Button small onClick={() => setDescribing(tool)} aria-label={t('tools.editDescriptionNamed', { name: tool.name })}>
                  {t('tools.editDescription')}
                </Button>
                <Button
                  small
                  onClick={() => setTrying(tool)}
                  disabled={!tool.enabled}
                  aria-label={t('tools.tryNamed', { name: tool.name })}
                >
                  {t('tools.try')}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {trying ? <TryToolDialog tool={trying} onClose={() => setTrying(undefined)} /> : null}
      {describing ? <ToolDescriptionDialog tool={describing} onClose={() => setDescribing(undefined)} /> : null}
    </div>
  );
}
