import { useEffect, useState } from 'react';

import type { ServedCatalog, ToolSearchHit } from '../../shared/served';
import type { EndpointStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';
import { ServedCount } from './served-count';
import { Dialog, Field, Notice } from './ui';

/** Exactly what an endpoint's model gets in tools/list, page by page; in router mode, a search to try. */
export function ServedPreviewDialog({ endpoint, onClose }: { endpoint: EndpointStatus; onClose: () => void }) {
  const { store, t } = useApp();
  // Re-read when what is served changes while the dialog is open.
  const version = useStore(store, (d) => `${d.state.endpoints.find((e) => e.id === endpoint.id)?.served?.bytes}:${d.catalog.length}`);
  const [catalog, setCatalog] = useState<ServedCatalog | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    store.api.getServedTools({ id: endpoint.id }).then(
      (c) => live && setCatalog(c),
      (error: Error) => live && setFailure(error.message),
    );
    return () => {
      live = false;
    };
  }, [store, endpoint.id, version]);
  const current = useStore(store, (d) => d.state.endpoints.find((e) => e.id === endpoint.id)) ?? endpoint;

  return (
    <Dialog wide title={t('preview.title', { name: endpoint.name })} onClose={onClose}>
      <p>
        <ServedCount endpoint={current} />
      </p>
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      {catalog?.summary.mode === 'router' ? <SearchTry /> : null}
      {!catalog ? <p className="muted">{t('app.loading')}</p> : null}
      {catalog?.pages.map((page, index) => (
        <section key={index} aria-label={t('preview.page', { n: index + 1, total: catalog.pages.length, size: formatBytes(page.bytes) })}>
          <h3 className="small muted">{t('preview.page', { n: index + 1, total: catalog.pages.length, size: formatBytes(page.bytes) })}</h3>
          <ul className="served-tools">
            {page.tools.map((tool) => (
              <li key={tool.name}>
                <div className="card-row">
                  <strong className="mono">{tool.name}</strong>
                  <span className="small muted">{formatBytes(tool.bytes)}</span>
                </div>
                <div className="small served-description">{tool.description}</div>
                <details>
                  <summary className="small muted">{t('preview.arguments')}</summary>
                  <pre className="mono">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Dialog>
  );
}

/** What find_tools would answer for a query, as the user types. */
function SearchTry() {
  const { store, t } = useApp();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ query: string; hits: ToolSearchHit[] } | undefined>();
  // Hits belong to the query they answer: an emptied or changed query shows none until its own arrive.
  const hits = query.trim() && found?.query === query ? found.hits : undefined;
  useEffect(() => {
    if (!query.trim()) return;
    let live = true;
    const timer = setTimeout(() => {
      store.api.searchTools({ query, limit: 5 }).then(
        (answer) => live && setFound({ query, hits: answer }),
        () => live && setFound({ query, hits: [] }),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [store, query]);
  return (
    <div className="search-box">
      <Field label={t('preview.search')} hint={t('preview.searchHint')}>
        {(id) => (
          <input
            id={id}
            type="search"
            placeholder={t('preview.searchPlaceholder')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
      </Field>
      {hits && hits.length === 0 ? <div className="small muted">{t('preview.searchNone')}</div> : null}
      {hits && hits.length > 0 ? (
        <ol className="search-hits" aria-label={t('preview.search')}>
          {hits.map((hit, index) => (
            <li key={hit.name}>
              <span className="search-rank small">{index + 1}.</span>
              <span>
                <strong className="mono">{hit.name}</strong> <span className="small muted">{hit.server}</span>
                <div className="small">{hit.description}</div>
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
