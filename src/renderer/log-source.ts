import type { Translate } from '../shared/i18n/translate';

/** The engine's log sources that have words of their own; the rest are shown as they are. */
const NAMED = new Map<string, Parameters<Translate>[0]>([
  ['app', 'logs.from.app'],
  ['web', 'logs.from.web'],
  ['updates', 'logs.from.updates'],
  ['model', 'logs.from.model'],
  ['local-server', 'logs.from.local-server'],
  ['calls', 'logs.from.calls'],
]);

/**
 * Where a log line came from, in the reader's words ("服务 记忆（知识图谱）", not `server:memory`): a
 * server by the name the rest of the window gives it (`title`, the catalogue's title for a catalogue
 * server). The engine's keys are the filter's values, never its text.
 */
export function logSourceLabel(t: Translate, source: string, title: (name: string) => string = (name) => name): string {
  const named = NAMED.get(source);
  if (named) return t(named);
  const at = source.indexOf(':');
  const name = source.slice(at + 1);
  if (source.startsWith('server:')) return t('logs.from.server', { name: title(name) });
  if (source.startsWith('endpoint:')) return t('logs.from.endpoint', { name });
  return source;
}

/**
 * The tooltip of a source shown by a server's title: the title whole (a long one is cut in the column)
 * and the server's internal name; nothing when the title is the name.
 */
export function logSourceTooltip(t: Translate, source: string, title: (name: string) => string): string | undefined {
  if (!source.startsWith('server:')) return undefined;
  const name = source.slice('server:'.length);
  return title(name) === name ? undefined : `${logSourceLabel(t, source, title)}\n${t('names8.logs.serverTitle', { name })}`;
}
