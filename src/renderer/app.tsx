import { type MouseEvent, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';

import { type Language, type MessageKey, resolveLanguage, translator } from '../shared/i18n/translate';
import type { ImportPreview } from '../shared/import';
import { runtimesAwaited, stepAwaited } from '../shared/sign-in-status';
import { summarizeStatus } from '../shared/status-summary';
import { AppContext, useApp } from './app-context';
import { ConfirmRemoveDialog } from './components/confirm-dialog';
import { useFileDrop } from './components/file-drop';
import { ImportReading } from './components/import-reading';
import { SummaryLines } from './components/status-summary-view';
import { Button, Notice } from './components/ui';
import { UpdateBanner } from './components/update-banner';
import { ActivityPage } from './pages/activity-page';
import { EndpointsPage } from './pages/endpoints-page';
import { HistoryPage } from './pages/history-page';
import { ImportDialog } from './pages/import-dialog';
import { LogsPage } from './pages/logs-page';
import { OverviewPage } from './pages/overview-page';
import { ServersPage } from './pages/servers-page';
import { SettingsPage } from './pages/settings-page';
import { ToolSetsPage } from './pages/tool-sets-page';
import { ToolsPage } from './pages/tools-page';
import { TrySentencePage } from './pages/try-sentence-page';
import { type BridgeStore, useStore } from './store/bridge-store';

const PAGES = ['overview', 'endpoints', 'servers', 'tools', 'toolSets', 'trySentence', 'activity', 'history', 'logs', 'settings'] as const;
type Page = (typeof PAGES)[number];

/**
 * The sidebar's groups, each page in one: what xiaozhi can use (servers and their tools) apart from
 * the tool sets, which only someone serving different tools to different places needs, and from Try a
 * sentence, which puts the person's own model in xiaozhi's place (third in the list, people took it for
 * a chat with xiaozhi).
 */
const NAV_GROUPS: readonly { heading?: MessageKey; pages: readonly Page[] }[] = [
  { pages: ['overview', 'endpoints'] },
  { heading: 'nav.group.use', pages: ['servers', 'tools'] },
  { heading: 'nav.group.records', pages: ['activity', 'history', 'logs'] },
  { heading: 'nav.group.advanced', pages: ['trySentence', 'toolSets', 'settings'] },
];

/** Each page of the sidebar; the overview's links go to the others. */
const PAGE_VIEWS: Record<Page, (go: (name: string) => void) => ReactNode> = {
  overview: (go) => <OverviewPage go={go} />,
  endpoints: () => <EndpointsPage />,
  servers: () => <ServersPage />,
  tools: () => <ToolsPage />,
  toolSets: () => <ToolSetsPage />,
  trySentence: () => <TrySentencePage />,
  activity: () => <ActivityPage />,
  history: () => <HistoryPage />,
  logs: () => <LogsPage />,
  settings: () => <SettingsPage />,
};

const pageFromHash = (): Page => {
  const name = window.location.hash.replace(/^#\/?/, '').split(/[?&]/)[0] as Page;
  return PAGES.includes(name) ? name : 'overview';
};

interface Toast {
  id: number;
  message: string;
  kind: 'info' | 'error';
}

export function App({ store }: { store: BridgeStore }) {
  const ready = useStore(store, (d) => d.ready);
  const connected = useStore(store, (d) => d.connected);
  const refused = useStore(store, (d) => d.refused);
  const ui = useStore(store, (d) => d.settings?.ui);
  const state = useStore(store, (d) => d.state);
  const [page, setPage] = useState<Page>(pageFromHash);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [stopping, setStopping] = useState(false);
  const [importPreview, setImportPreview] = useState<ImportPreview | undefined>();
  // Until the settings are read (or when they cannot be: a refused address), the language this window last had.
  // "System" is the engine's system (the run's LANG, the desktop app's locale); the browser's only when the engine says none.
  const systemLocale = useStore(store, (d) => d.host?.systemLocale);
  const language = resolveLanguage(ui?.language ?? rememberedLanguage(), systemLocale ?? navigator.language);
  useEffect(() => {
    if (ui?.language) rememberLanguage(ui.language);
  }, [ui?.language]);
  const t = useMemo(() => translator(language), [language]);

  useEffect(() => {
    const onHash = () => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
    document.title = t('app.name');
  }, [language, t]);
  useEffect(() => {
    // "System" follows the OS, live: the stylesheet only knows light and dark.
    const query = window.matchMedia?.('(prefers-color-scheme: dark)');
    const apply = () => {
      const theme = ui?.theme ?? 'system';
      document.documentElement.dataset.theme = theme === 'system' ? (query?.matches ? 'dark' : 'light') : theme;
    };
    apply();
    query?.addEventListener('change', apply);
    return () => query?.removeEventListener('change', apply);
  }, [ui?.theme]);

  const toast = useCallback((message: string, kind: 'info' | 'error' = 'info') => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list, { id, message, kind }]);
    setTimeout(() => setToasts((list) => list.filter((x) => x.id !== id)), kind === 'error' ? 8000 : 3000);
  }, []);
  const go = useCallback((name: string) => {
    window.location.hash = `#/${name}`;
  }, []);
  useEffect(() => store.api.on('importPreview', (preview) => setImportPreview(preview)), [store]);
  const context = useMemo(() => ({ store, t, language, toast, showImport: setImportPreview }), [store, t, language, toast]);
  const summary = summarizeStatus(state);
  // A failure is red; a server that only waits for a sign-in or a runtime's download is amber, as on its card.
  const failedServers = state.servers.filter((s) => s.state === 'failed');
  const serversAlert = failedServers.some((s) => !stepAwaited(s)) ? 'failed' : failedServers.map(stepAwaited)[0];
  const alertLabel =
    serversAlert === 'signIn'
      ? t('state.needsSignIn')
      : serversAlert === 'runtime'
        ? t('state.needsRuntime', { runtime: runtimesAwaited(failedServers).join(', ') })
        : t('state.failed');

  return (
    <AppContext.Provider value={context}>
      <div className="app">
        <a className="skip-link" href="#main-content" onClick={skipToMain}>
          {t('app.skipToContent')}
        </a>
        <nav className="sidebar" aria-label={t('nav.label')}>
          <div className="brand">
            <span className={`brand-dot tone-${summary.tone}`} aria-hidden="true" />
            <span>{t('app.name')}</span>
          </div>
          <div className="nav-pages">
            {NAV_GROUPS.map((group) => (
              <div className="nav-group" key={group.pages[0]}>
                {group.heading ? (
                  <div className="nav-heading" aria-hidden="true">
                    {t(group.heading)}
                  </div>
                ) : null}
                <ul aria-label={group.heading ? t(group.heading) : undefined}>
                  {group.pages.map((name) => (
                    <li key={name}>
                      <a
                        href={`#/${name}`}
                        aria-current={page === name ? 'page' : undefined}
                        className={page === name ? 'active' : undefined}
                      >
                        <span>{t(`nav.${name}` as MessageKey)}</span>
                        {name === 'servers' && serversAlert ? (
                          <span className={`nav-alert${serversAlert !== 'failed' ? ' nav-alert-warn' : ''}`} aria-label={alertLabel} />
                        ) : null}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
          {/* Before the state is read, "Stopped" and "Start all" would be guesses. */}
          {ready ? (
            <div className="sidebar-footer">
              <SummaryLines summary={summary} className="small sidebar-status" />
              {/* With no server running (none yet, or all switched off or stopped), "stop all servers" has nothing to stop. */}
              {state.running ? (
                state.servers.some((s) => s.state === 'running' || s.state === 'starting' || s.state === 'restarting') ? (
                  <Button small onClick={() => setStopping(true)}>
                    {t('app.stopAll')}
                  </Button>
                ) : null
              ) : (
                <Button small kind="primary" onClick={() => void store.api.start()}>
                  {t('app.startAll')}
                </Button>
              )}
            </div>
          ) : null}
        </nav>
        <main className="content" id="main-content" tabIndex={-1}>
          {refused ? <Notice kind="error">{t('app.addressExpired')}</Notice> : null}
          {!connected ? <Notice kind="error">{t('app.disconnected')}</Notice> : null}
          {ready ? <UpdateBanner /> : null}
          {/* Inert while the app is out of reach: a click then would be lost, or land on what the app no longer has. */}
          <div className="page-slot" inert={!connected}>
            {!ready ? refused ? null : <p className="muted">{t('app.loading')}</p> : PAGE_VIEWS[page](go)}
          </div>
        </main>
        {stopping ? (
          // Stopping everything cuts xiaozhi off from every tool: asked first, and said so.
          <ConfirmRemoveDialog
            title={t('app.stopAllTitle')}
            body={t('app.stopAllBody')}
            confirmLabel={t('app.stopAll')}
            onCancel={() => setStopping(false)}
            onConfirm={() => {
              setStopping(false);
              void store.api.stop();
            }}
          />
        ) : null}
        <DropZone />
        {importPreview ? <ImportDialog key={importPreview.id} preview={importPreview} onClose={() => setImportPreview(undefined)} /> : null}
        <div className="toasts" aria-live="polite">
          {toasts.map((x) => (
            <div key={x.id} className={`toast toast-${x.kind}`} role={x.kind === 'error' ? 'alert' : 'status'}>
              {x.message}
            </div>
          ))}
        </div>
      </div>
    </AppContext.Provider>
  );
}

/** The hash routes pages: the skip link moves the focus instead of changing the route. */
function skipToMain(event: MouseEvent) {
  event.preventDefault();
  document.getElementById('main-content')?.focus();
}

/** The whole window accepts dropped config files; an overlay says so while dragging, a line while one is read. */
function DropZone() {
  const { t, showImport } = useApp();
  const { dragging, reading } = useFileDrop(showImport);
  return dragging ? (
    <div className="drop-overlay" aria-hidden="true">
      {t('import.dropHere')}
    </div>
  ) : (
    <ImportReading reading={reading} />
  );
}

const LANGUAGE_KEY = 'xiaozhi-language';

/** The language setting this browser last saw ('system', 'zh-CN', 'en'), kept so a page that cannot reach the bridge still speaks it. */
function rememberedLanguage(): 'system' | Language | undefined {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return value === 'system' || value === 'zh-CN' || value === 'en' ? value : undefined;
  } catch {
    return undefined;
  }
}

function rememberLanguage(value: string): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, value);
  } catch {
    // storage refused (private mode): the page falls back to the browser's language
  }
}
