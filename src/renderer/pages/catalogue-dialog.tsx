import { useMemo, useState } from 'react';

import { CatalogueCategorySchema, type CatalogueEntry, serverFromEntry } from '../../shared/catalogue';
import type { ServerSettings } from '../../shared/settings';
import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { ProblemText } from '../components/problem-text';
import { Button, Dialog, EmptyState, Notice } from '../components/ui';
import { formatAgo } from '../format';
import { useStore } from '../store/bridge-store';
import { CatalogueCard, runtimeNote } from './catalogue/catalogue-card';
import { freeName, isAdded, searchEntries } from './catalogue/catalogue-search';
import { type CatalogueView, useCatalogue, useOfflineNoteShown } from './catalogue/use-catalogue';
import { ValuesStep } from './catalogue/values-step';
import { useServerSave } from './use-server-save';

/** Said once a window, quietly: the online directory could not be reached (offline, or blocked, as often in mainland China). */
function OfflineNote() {
  const { t } = useApp();
  useOfflineNoteShown();
  return <p className="small muted">{t('catalogue.builtInShown')}</p>;
}

/** The line under the search: reading the list, or how many entries match and when the list was read. */
function CatalogueStatus({ view, count }: { view: CatalogueView; count: number }) {
  const { t, language } = useApp();
  return (
    <p className="small muted catalogue-status" aria-live="polite">
      {view.state === 'loading' ? t('catalogue.loading') : t('catalogue.count', { count })}
      {view.state === 'ready' && view.catalogue.refreshedAt
        ? ` · ${t('catalogue.refreshed', { time: formatAgo(view.catalogue.refreshedAt, language) })}`
        : ''}
    </p>
  );
}

/**
 * "Add server": the catalogue. Search and filter, pick one, give the values it needs (or confirm one
 * that needs none), and Add saves and starts it (`onAdded`). "Advanced settings" opens the server
 * form filled in instead (`onPick`), where nothing runs until it is saved.
 */
export function CatalogueDialog(props: {
  onClose: () => void;
  onPick: (server: ServerSettings) => void;
  onCustom: () => void;
  onAdded?: (name: string) => void;
}) {
  const { store, t, language } = useApp();
  const servers = useStore(store, (d) => d.settings?.servers ?? []);
  const { view, host, sources, refreshing, refreshNow } = useCatalogue();
  const { busy, save } = useServerSave(undefined, (name) => (props.onAdded ?? props.onClose)(name), 'add.addedStarting');
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState('');
  const [chosen, setChosen] = useState<CatalogueEntry | undefined>();
  const entries = view.state === 'ready' ? view.catalogue.entries : undefined;
  const shown = useMemo(
    () => searchEntries(entries ?? [], query, category, (c) => t(`catalogue.category.${c}` as 'catalogue.category.all')),
    [entries, query, category, t],
  );

  if (chosen) {
    const name = freeName(
      chosen.name,
      servers.map((s) => s.name),
    );
    const runtime = runtimeNote(chosen, host, sources, t, language);
    return (
      <ValuesStep
        entry={chosen}
        build={(values) => serverFromEntry(chosen, values, name) as ServerSettings}
        held={servers}
        // Said only when the runtime is not simply there: to be fetched, or missing.
        {...(runtime && !runtime.ready
          ? { runtime: { text: runtime.text, missing: runtime.missing, need: runtime.need, download: runtime.download === true } }
          : {})}
        busy={busy}
        onBack={() => setChosen(undefined)}
        onClose={props.onClose}
        onAdd={(server) => void save(server, language === 'zh-CN' ? chosen.title.zh : chosen.title.en)}
        onAdvanced={props.onPick}
      />
    );
  }

  return (
    <Dialog
      wide
      title={t('catalogue.title')}
      onClose={props.onClose}
      footer={
        <DialogFooter
          onCancel={props.onClose}
          start={
            <Button kind="ghost" onClick={refreshNow} disabled={refreshing}>
              {refreshing ? t('catalogue.refreshing') : t('catalogue.refresh')}
            </Button>
          }
          extra={<Button onClick={props.onCustom}>{t('servers.custom')}</Button>}
        />
      }
    >
      <div className="catalogue-filters">
        <input
          type="search"
          autoFocus
          aria-label={t('catalogue.search')}
          placeholder={t('catalogue.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <select aria-label={t('catalogue.categories')} value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">{t('catalogue.category.all')}</option>
          {CatalogueCategorySchema.options.map((c) => (
            <option key={c} value={c}>
              {t(`catalogue.category.${c}`)}
            </option>
          ))}
        </select>
      </div>
      <CatalogueStatus view={view} count={shown.length} />
      {view.state === 'ready' && view.offline === 'warn' ? (
        <Notice kind="warn">
          {t('catalogue.refreshFailed')}
          {/* Why, in plain words (no network, refused, an error code…); the raw cause is in the log. */}
          <ProblemText problem={view.catalogue.refreshProblem} tone="warn" />
        </Notice>
      ) : null}
      {view.state === 'ready' && view.offline === 'quiet' ? <OfflineNote /> : null}
      {view.state === 'ready' && shown.length === 0 ? (
        <EmptyState
          title={t('catalogue.none', { query: query.trim() || t(`catalogue.category.${category || 'all'}` as 'catalogue.category.all') })}
        >
          <p className="muted">{t('catalogue.noneHint')}</p>
          <Button small onClick={props.onCustom}>
            {t('servers.custom')}
          </Button>
        </EmptyState>
      ) : null}
      <ul className="catalogue-list" aria-label={t('catalogue.list')}>
        {shown.map((entry) => (
          <CatalogueCard
            key={entry.id}
            entry={entry}
            added={isAdded(entry, servers)}
            host={host}
            sources={sources}
            onChoose={() => setChosen(entry)}
          />
        ))}
      </ul>
    </Dialog>
  );
}
