import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { CatalogueCategorySchema, serverFromEntry, type Catalogue, type CatalogueEntry } from '../../shared/catalogue';
import { CHINA_MIRRORS, mirrorUrls, type MirrorUrls } from '../../shared/mirrors';
import type { ServerSettings } from '../../shared/settings';
import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { Button, Dialog, EmptyState, Field, Notice } from '../components/ui';
import { installCommand, runtimeNeed, RUNTIME_LABEL } from '../../shared/runtime-need';
import type { HostInfo } from '../../shared/host';
import type { Translate } from '../../shared/i18n/translate';
import { formatAgo } from '../format';
import { useStore } from '../store/bridge-store';
import { own } from '../../shared/own';

/** Whether a configured server runs what this entry runs (same package, or same remote address). */
export function isAdded(entry: CatalogueEntry, servers: ServerSettings[]): boolean {
  if (entry.run.transport === 'stdio') {
    const pkg = entry.run.args.find((a) => !a.startsWith('-') && !a.includes('{'));
    const base = (p: string) => p.replace(/(?<=.)@[^/@]*$/, '').replace(/==.*$/, '');
    return (
      pkg !== undefined &&
      servers.some(
        (s) =>
          s.transport === 'stdio' && s.command === (entry.run as { command: string }).command && s.args.some((a) => base(a) === base(pkg)),
      )
    );
  }
  const fixed = entry.run.url.split('{')[0] as string;
  if (!/^https?:\/\/[^/]+/.test(fixed)) return false;
  return servers.some((s) => (s.transport === 'sse' || s.transport === 'streamable-http') && s.url.startsWith(fixed));
}

/** `name`, or `name-2`, `name-3`… whichever no server has. */
function freeName(name: string, taken: string[]): string {
  if (!taken.includes(name)) return name;
  for (let i = 2; ; i++) if (!taken.includes(`${name}-${i}`)) return `${name}-${i}`;
}

function runsWith(entry: CatalogueEntry): {
  key: 'catalogue.runs.npx' | 'catalogue.runs.uvx' | 'catalogue.runs.remote' | 'catalogue.runs.other';
  command?: string;
} {
  if (entry.run.transport !== 'stdio') return { key: 'catalogue.runs.remote' };
  if (entry.run.command === 'npx') return { key: 'catalogue.runs.npx' };
  if (entry.run.command === 'uvx') return { key: 'catalogue.runs.uvx' };
  return { key: 'catalogue.runs.other', command: entry.run.command };
}

/**
 * What an entry's runtime (Node.js for npx, uv for uvx) means here: there already, fetched by the app
 * when the server is added (the desktop app: its card then shows the download), or to install first
 * (headless), with the command for this computer's OS, from the download sources chosen. In the
 * Chinese window with the official sources (the default), the command is the mainland China mirrors'
 * one: the official installers fetch from GitHub and astral.sh, which most readers there cannot reach.
 */
function runtimeNote(
  entry: CatalogueEntry,
  host: HostInfo | undefined,
  sources: MirrorUrls | 'official',
  t: Translate,
  language: string,
): { text: string; missing: boolean } | undefined {
  if (entry.run.transport !== 'stdio' || !host?.runtimes) return undefined;
  const need = runtimeNeed(entry.run.command, host.platform);
  if (!need) return undefined;
  const runtime = RUNTIME_LABEL[need];
  switch (host.runtimes[need]) {
    case 'yours':
    case 'app':
      return { text: t('catalogue.runtime.ready', { runtime }), missing: false };
    case 'fetch':
      return { text: t('catalogue.runtime.fetch', { runtime }), missing: false };
    default:
      if (sources === 'official' && language === 'zh-CN')
        return {
          text: t('catalogue.runtime.missingChina', { runtime, install: installCommand(need, host.platform, CHINA_MIRRORS) }),
          missing: true,
        };
      return {
        text: t('catalogue.runtime.missing', {
          runtime,
          install: installCommand(need, host.platform, sources === 'official' ? {} : sources),
        }),
        missing: true,
      };
  }
}

/**
 * The windows (by their bridge API) that said once that the built-in catalogue is shown (the registry could
 * not be reached). Kept per store, not in one flag: a flag outlived its window and silenced the next.
 */
const offlineNoteShown = new WeakSet<object>();

function OfflineNote() {
  const { t, store } = useApp();
  useEffect(() => {
    offlineNoteShown.add(store.api);
  }, [store.api]);
  return <p className="small muted">{t('catalogue.builtInShown')}</p>;
}

/**
 * "Add server": the catalogue. Search and filter, pick one, give the values it needs, and the server
 * form opens filled in. Nothing runs until the form is saved.
 */
export function CatalogueDialog(props: { onClose: () => void; onPick: (server: ServerSettings) => void; onCustom: () => void }) {
  const { store, t, language } = useApp();
  const servers = useStore(store, (d) => d.settings?.servers ?? []);
  const mirrors = useStore(store, (d) => d.settings?.mirrors);
  const sources = useMemo(() => (mirrors && mirrors.preset !== 'default' ? mirrorUrls(mirrors) : 'official'), [mirrors]);
  const loadedHost = useStore(store, (d) => d.host);
  // Asked again on opening: a runtime fetched since the window loaded is there now.
  const [freshHost, setFreshHost] = useState<HostInfo | undefined>();
  const host = freshHost ?? loadedHost;
  const [catalogue, setCatalogue] = useState<Catalogue | undefined>();
  const [refreshing, setRefreshing] = useState(false);
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState('');
  const [chosen, setChosen] = useState<CatalogueEntry | undefined>();
  const zh = language === 'zh-CN';
  const text = (x: { en: string; zh: string }) => (zh ? x.zh : x.en);

  // A refresh the user asked for that failed is worth a warning; the automatic one on opening is not (offline, or in mainland China, every time).
  const [asked, setAsked] = useState(false);
  const [quietNote] = useState(() => !offlineNoteShown.has(store.api));
  const refresh = async (mode: 'ifStale' | 'now') => {
    setRefreshing(true);
    if (mode === 'now') setAsked(true);
    try {
      setCatalogue(await store.api.getCatalogue({ refresh: mode }));
    } catch {
      // The list we have stays; the note below says it may be old.
    } finally {
      setRefreshing(false);
    }
  };
  const refreshIfStale = useEffectEvent(() => void refresh('ifStale'));
  useEffect(() => {
    let live = true;
    store.api.getHostInfo().then(
      (info) => live && setFreshHost(info),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [store]);
  useEffect(() => {
    let live = true;
    void store.api.getCatalogue({}).then((c) => {
      if (!live) return;
      setCatalogue(c);
      refreshIfStale();
    });
    return () => {
      live = false;
    };
  }, [store]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const inCategory = (catalogue?.entries ?? []).filter((e) => !category || e.category === category);
    if (!q) return inCategory;
    // What it is (name, title, category) ranks before what it merely mentions (keywords, description):
    // "天气" lists the weather servers before the maps that can also tell the weather.
    const has = (texts: string[]) => texts.some((s) => s.toLowerCase().includes(q));
    const rank = (e: CatalogueEntry) =>
      has([e.name, e.title.en, e.title.zh, e.category, t(`catalogue.category.${e.category}`)])
        ? 0
        : has(e.keywords)
          ? 1
          : has([e.description.en, e.description.zh])
            ? 2
            : 3;
    return inCategory
      .map((e) => ({ e, r: rank(e) }))
      .filter((x) => x.r < 3)
      .sort((a, b) => a.r - b.r)
      .map((x) => x.e);
  }, [catalogue, query, category, t]);

  if (chosen) {
    return (
      <ValuesStep
        entry={chosen}
        onBack={() => setChosen(undefined)}
        onClose={props.onClose}
        onDone={(values) =>
          props.onPick(
            serverFromEntry(
              chosen,
              values,
              freeName(
                chosen.name,
                servers.map((s) => s.name),
              ),
            ) as ServerSettings,
          )
        }
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
            <Button kind="ghost" onClick={() => void refresh('now')} disabled={refreshing}>
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
      <p className="small muted catalogue-status" aria-live="polite">
        {catalogue ? t('catalogue.count', { count: shown.length }) : t('app.loading')}
        {catalogue?.refreshedAt ? ` · ${t('catalogue.refreshed', { time: formatAgo(catalogue.refreshedAt, language) })}` : ''}
      </p>
      {catalogue?.refreshError && asked ? <Notice kind="warn">{t('catalogue.refreshFailed')}</Notice> : null}
      {catalogue?.refreshError && !asked && quietNote ? <OfflineNote /> : null}
      {catalogue && shown.length === 0 ? (
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
        {shown.map((entry) => {
          const added = isAdded(entry, servers);
          const runs = runsWith(entry);
          const needs = entry.values.filter((v) => v.required).map((v) => text(v.label));
          const runtime = runtimeNote(entry, host, sources, t, language);
          return (
            // The whole card is a target for the pointer (its link excepted); the keyboard has the two buttons.
            <li
              key={entry.id}
              className="catalogue-entry"
              onClick={(e) => (e.target as HTMLElement).closest('a, button') === null && setChosen(entry)}
            >
              <div className="catalogue-head">
                <button type="button" className="catalogue-pick" onClick={() => setChosen(entry)} aria-describedby={`${entry.id}-desc`}>
                  <span className="catalogue-title">{text(entry.title)}</span>
                  {added ? <span className="badge badge-ok">{t('catalogue.added')}</span> : null}
                  {entry.source === 'registry' ? (
                    <span className="tag" title={t('catalogue.registryTerm')}>
                      {t('catalogue.fromRegistry')}
                    </span>
                  ) : null}
                </button>
                <span className="spacer" />
                <Button
                  small
                  kind="primary"
                  onClick={() => setChosen(entry)}
                  aria-label={t('plain.catalogue.addNamed', { name: text(entry.title) })}
                >
                  {t('plain.catalogue.add')}
                </Button>
              </div>
              <div className="small" id={`${entry.id}-desc`}>
                {text(entry.description)}
              </div>
              <div className="small muted catalogue-meta">
                <span>{t(runs.key, runs.command ? { command: runs.command } : {})}</span>
                {runtime ? <span className={runtime.missing ? 'catalogue-runtime-missing' : undefined}>{runtime.text}</span> : null}
                <span>
                  {needs.length > 0 ? t('catalogue.needs', { values: needs.join(t('list.separator')) }) : t('catalogue.needsNothing')}
                </span>
                <a href={entry.homepage} target="_blank" rel="noreferrer noopener">
                  {t('catalogue.homepage')}
                </a>
              </div>
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}

/** The values an entry needs (keys, folders, addresses), asked for before the form opens. */
function ValuesStep(props: {
  entry: CatalogueEntry;
  onBack: () => void;
  onClose: () => void;
  onDone: (values: Record<string, string>) => void;
}) {
  const { t, language } = useApp();
  const text = (x: { en: string; zh: string }) => (language === 'zh-CN' ? x.zh : x.en);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(props.entry.values.map((v) => [v.id, v.default ?? ''])),
  );
  const [submitted, setSubmitted] = useState(false);
  const missing = props.entry.values.filter((v) => v.required && !own(values, v.id)?.trim());
  const done = () => {
    setSubmitted(true);
    if (missing.length === 0) props.onDone(values);
  };
  // An entry that needs no values is done at once, once per entry.
  const doneWithNothing = useEffectEvent(() => props.onDone({}));
  const needsNothing = props.entry.values.length === 0;
  useEffect(() => {
    if (needsNothing) doneWithNothing();
  }, [needsNothing]);
  if (props.entry.values.length === 0) return null;
  return (
    <Dialog
      wide
      title={t('catalogue.valuesTitle', { name: text(props.entry.title) })}
      onClose={props.onClose}
      onSubmit={done}
      footer={
        <DialogFooter
          onCancel={props.onClose}
          start={
            <Button kind="ghost" onClick={props.onBack}>
              {t('catalogue.back')}
            </Button>
          }
          primary={{ label: t('catalogue.continue') }}
        />
      }
    >
      <p className="muted">{text(props.entry.description)}</p>
      <div className="form">
        {props.entry.values.map((value) => (
          <Field
            key={value.id}
            label={value.required ? `${text(value.label)} *` : t('catalogue.optional', { label: text(value.label) })}
            error={submitted && missing.includes(value) ? t('servers.error.required') : undefined}
            {...(value.hint ? { hint: text(value.hint) } : {})}
          >
            {(id) => (
              <input
                id={id}
                className={value.kind === 'text' ? undefined : 'mono'}
                type={value.kind === 'secret' ? 'password' : value.kind === 'url' ? 'url' : 'text'}
                autoComplete="off"
                spellCheck={false}
                value={own(values, value.id) ?? ''}
                onChange={(e) => setValues({ ...values, [value.id]: e.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
      <p className="small muted">
        <a href={props.entry.homepage} target="_blank" rel="noreferrer noopener">
          {t('catalogue.homepage')}
        </a>{' '}
        · {t('catalogue.nothingRuns')}
      </p>
    </Dialog>
  );
}
