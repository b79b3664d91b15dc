import type { CatalogueEntry } from '../../../shared/catalogue';
import type { Language } from '../../../shared/i18n/translate';
import type { Settings } from '../../../shared/settings';
import { shippedCatalogue } from '../catalogue/shipped-catalogue';

/**
 * A server's title in a language, when it was added from the shipped catalogue (a server remembers its
 * entry): our words for it, said in a confirmation instead of whatever the server calls itself.
 * The catalogue is read at the first need, once per bridge.
 */
export function catalogueTitles(settings: () => Settings): (server: string, language: Language) => string | undefined {
  let titles: Map<string, CatalogueEntry['title']> | undefined;
  return (server, language) => {
    const found = settings().servers.find((s) => s.name === server);
    const id = found && 'catalogue' in found ? found.catalogue : undefined;
    if (!id) return undefined;
    titles ??= new Map(shippedCatalogue().map((e) => [e.id, e.title]));
    const title = titles.get(id);
    return title && (language === 'zh-CN' ? title.zh : title.en);
  };
}
