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
 * Where a log line came from, in the reader's words ("服务 memory", not `server:memory`): the engine's
 * keys are the filter's values, never its text.
 */
export function logSourceLabel(t: Translate, source: string): string {
  const named = NAMED.get(source);
  if (named) return t(named);
  const at = source.indexOf(':');
  const name = source.slice(at + 1);
  if (source.startsWith('server:')) return t('logs.from.server', { name });
  if (source.startsWith('endpoint:')) return t('logs.from.endpoint', { name });
  return source;
}
