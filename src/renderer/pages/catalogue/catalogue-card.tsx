import type { CatalogueEntry } from '../../../shared/catalogue';
import type { HostInfo } from '../../../shared/host';
import type { Translate } from '../../../shared/i18n/translate';
import { CHINA_MIRRORS, type MirrorUrls } from '../../../shared/mirrors';
import { installCommand, RUNTIME_LABEL, type RuntimeName, runtimeNeed } from '../../../shared/runtime-need';
import { useApp } from '../../app-context';
import { Button } from '../../components/ui';

/** Where it runs, and with what when nothing else says so; `said`: its runtime is here (no word needed) or has its own line. */
function runsWith(
  entry: CatalogueEntry,
  said: boolean,
): {
  key: 'catalogue.runs.npx' | 'catalogue.runs.uvx' | 'catalogue.runs.remote' | 'catalogue.runs.other' | 'catalogue.runs.here';
  command?: string;
} {
  if (entry.run.transport !== 'stdio') return { key: 'catalogue.runs.remote' };
  if (said) return { key: 'catalogue.runs.here' };
  if (entry.run.command === 'npx') return { key: 'catalogue.runs.npx' };
  if (entry.run.command === 'uvx') return { key: 'catalogue.runs.uvx' };
  return { key: 'catalogue.runs.other', command: entry.run.command };
}

/**
 * What an entry's runtime (Node.js for npx, uv for uvx) means here: there already, fetched by the app
 * when the server is added (the desktop app: its card then shows the download), downloaded by the add
 * step before it adds (`download`: the headless web page), or to install first, with the command for this computer's OS, from the download sources chosen. In the
 * Chinese window with the official sources (the default), the command is the mainland China mirrors'
 * one: the official installers fetch from GitHub and astral.sh, which most readers there cannot reach.
 */
export function runtimeNote(
  entry: CatalogueEntry,
  host: HostInfo | undefined,
  sources: MirrorUrls | 'official',
  t: Translate,
  language: string,
): { text: string; missing: boolean; ready: boolean; need: RuntimeName; download?: boolean } | undefined {
  if (entry.run.transport !== 'stdio' || !host?.runtimes) return undefined;
  const need = runtimeNeed(entry.run.command, host.platform);
  if (!need) return undefined;
  const runtime = RUNTIME_LABEL[need];
  switch (host.runtimes[need]) {
    case 'yours':
    case 'app':
      return { text: t('catalogue.runtime.ready', { runtime }), missing: false, ready: true, need };
    case 'fetch':
      return { text: t('catalogue.runtime.fetch', { runtime }), missing: false, ready: false, need };
    default: {
      const said = { missing: true, ready: false, need };
      // The window can have it downloaded (the add step's one button does): no command to copy.
      if (host.runtimeDownload) return { text: t('add.runtimeMissingShort', { runtime }), ...said, download: true };
      if (sources === 'official' && language === 'zh-CN')
        return {
          text: t('catalogue.runtime.missingChina', { runtime, install: installCommand(need, host.platform, CHINA_MIRRORS) }),
          ...said,
        };
      return {
        text: t('catalogue.runtime.missing', {
          runtime,
          install: installCommand(need, host.platform, sources === 'official' ? {} : sources),
        }),
        ...said,
      };
    }
  }
}

/** One entry of the catalogue: its title and 添加 button, what it does, what it runs with and needs. */
export function CatalogueCard(props: {
  entry: CatalogueEntry;
  added: boolean;
  host: HostInfo | undefined;
  sources: MirrorUrls | 'official';
  onChoose: () => void;
}) {
  const { t, language } = useApp();
  const { entry } = props;
  const text = (x: { en: string; zh: string }) => (language === 'zh-CN' ? x.zh : x.en);
  const needs = entry.values.filter((v) => v.required).map((v) => text(v.label));
  const runtime = runtimeNote(entry, props.host, props.sources, t, language);
  const runs = runsWith(entry, runtime !== undefined);
  return (
    // The whole card is a target for the pointer (its link excepted); the keyboard has the two buttons.
    <li className="catalogue-entry" onClick={(e) => (e.target as HTMLElement).closest('a, button') === null && props.onChoose()}>
      <div className="catalogue-head">
        <button type="button" className="catalogue-pick" onClick={props.onChoose} aria-describedby={`${entry.id}-desc`}>
          <span className="catalogue-title">{text(entry.title)}</span>
          {props.added ? <span className="badge badge-ok">{t('catalogue.added')}</span> : null}
          {entry.source === 'registry' ? (
            <span className="tag" title={t('catalogue.registryTerm')}>
              {t('catalogue.fromRegistry')}
            </span>
          ) : null}
        </button>
        <span className="spacer" />
        <Button small kind="primary" onClick={props.onChoose} aria-label={t('plain.catalogue.addNamed', { name: text(entry.title) })}>
          {t('plain.catalogue.add')}
        </Button>
      </div>
      <div className="small" id={`${entry.id}-desc`}>
        {text(entry.description)}
      </div>
      <div className="small muted catalogue-meta">
        <span>{t(runs.key, runs.command ? { command: runs.command } : {})}</span>
        {runtime && !runtime.ready ? (
          // Missing but downloaded by the add step is a normal state: said calmly, not in amber.
          <span className={runtime.missing && !runtime.download ? 'catalogue-runtime-missing' : undefined}>{runtime.text}</span>
        ) : null}
        <span>{needs.length > 0 ? t('catalogue.needs', { values: needs.join(t('list.separator')) }) : t('catalogue.needsNothing')}</span>
        <a href={entry.homepage} target="_blank" rel="noreferrer noopener">
          {t('catalogue.homepage')}
        </a>
      </div>
    </li>
  );
}
