import type { ServerStatus } from '../../shared/status';
import { useApp } from '../app-context';

/** The protocol names behind the plain words for each kind of MCP server, for those who know them. */
const TRANSPORT_TERMS = new Map<string, string>([
  ['stdio', 'stdio'],
  ['streamable-http', 'Streamable HTTP'],
  ['sse', 'SSE'],
]);

/** An MCP server's protocol name; undefined for a web service (its kind is its name). */
export function transportTerm(transport: string): string | undefined {
  return TRANSPORT_TERMS.get(transport);
}

/** A server's kind in plain words; an MCP server's protocol name in the tooltip (a web service's kind is its name). */
export function TransportTag({ transport }: { transport: ServerStatus['transport'] }) {
  const { t } = useApp();
  const term = transportTerm(transport);
  return (
    <span className="tag" title={term ? t('servers.transportTerm', { term }) : undefined}>
      {t(`servers.transport.${transport === 'streamable-http' ? 'http' : transport}`)}
    </span>
  );
}
