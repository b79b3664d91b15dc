import { type Language, translate } from '../../../shared/i18n/translate';
import { BUILTIN_SERVER } from '../hub/builtin/builtin-tools';

/** A server's catalogue title in a language, when it was added from the catalogue. */
export type ServerTitle = (server: string, language: Language) => string | undefined;

/**
 * Servers as the model names them to the person: as the window does (a catalogue server by its title,
 * the app's own tools as built in), so "本机文件" is said, not "filesystem". A title two servers share
 * keeps each one's internal name after it, so the model can still tell them apart. Tools keep their
 * exact names: only what the model says changes.
 */
export function spokenServers(servers: Iterable<string>, language: Language, title?: ServerTitle): Map<string, string> {
  const titles = new Map<string, string>();
  for (const server of servers) {
    titles.set(server, server === BUILTIN_SERVER ? translate(language, 'voice.router.appServer') : (title?.(server, language) ?? server));
  }
  const uses = new Map<string, number>();
  for (const said of titles.values()) uses.set(said, (uses.get(said) ?? 0) + 1);
  const spoken = new Map<string, string>();
  for (const [server, said] of titles) {
    spoken.set(
      server,
      said !== server && (uses.get(said) ?? 0) > 1 ? translate(language, 'voice.router.serverNamed', { title: said, name: server }) : said,
    );
  }
  return spoken;
}
