import { type CatalogueEntry, valuesFromServer } from '../../../shared/catalogue';
import { own } from '../../../shared/own';
import { isMcpServer, type ServerSettings, serverTarget } from '../../../shared/settings';
import { useApp } from '../../app-context';
import { shownMasked } from '../../masked';
import { useCatalogueEntry } from './use-catalogue-entry';

/**
 * A server's catalogue entry and the values it was made from; null for a server not from the
 * catalogue, or changed by hand beyond what its entry says (its command is then what says what it
 * is); undefined while the entry is read.
 */
export function useFromCatalogue(
  settings: ServerSettings | undefined,
): { entry: CatalogueEntry; values: Record<string, string> } | null | undefined {
  const entry = useCatalogueEntry(settings && isMcpServer(settings) ? settings.catalogue : undefined);
  if (entry === undefined) return undefined;
  const values = entry && settings ? valuesFromServer(entry, settings) : undefined;
  return entry && values ? { entry, values } : null;
}

/**
 * What a server is, on its card. One from the catalogue: its plain description and the values it
 * uses, the command line behind Details (a walkthrough: `npx -y @modelcontextprotocol/server-memory`
 * meant nothing to a person who added "记忆"). One added by hand: its command, in small text.
 */
export function ServerAbout(props: {
  settings: ServerSettings | undefined;
  from: { entry: CatalogueEntry; values: Record<string, string> } | null | undefined;
}) {
  const { t, language } = useApp();
  const text = (x: { en: string; zh: string }) => (language === 'zh-CN' ? x.zh : x.en);
  const target = shownMasked(props.settings ? serverTarget(props.settings) : '', t);
  // Until its entry is read, nothing: the command line would flash and go.
  if (props.from === undefined) return null;
  if (props.from === null) return <div className="mono small muted break">{target}</div>;
  const { entry, values } = props.from;
  const used = entry.values.filter((v) => own(values, v.id)?.trim());
  return (
    <>
      <div className="small">{text(entry.description)}</div>
      {used.map((v) => (
        <div key={v.id} className="small muted break">
          {t('servers.valueIs', {
            label: text(v.label),
            // A key is never shown, only that it was given.
            value: v.kind === 'secret' ? t('servers.valueGiven') : shownMasked(own(values, v.id) ?? '', t),
          })}
        </div>
      ))}
      <details className="small server-details">
        <summary>{t('servers.details')}</summary>
        {/* Named as everywhere else (its title); the internal name, what the config and tool prefixes use, small after it. */}
        <div className="muted">{t('servers.nameIs', { name: text(entry.title) })}</div>
        <div className="small muted" title={t('names9.servers.internalNameHint')}>
          {t('names8.logs.serverTitle', { name: props.settings?.name ?? '' })}
        </div>
        <div className="mono muted break">{target}</div>
      </details>
    </>
  );
}
