import type { Page } from '../main/core/hub/tool-pages';
import { hasMessage, type Translate } from '../shared/i18n/translate';
import type { BridgeState, CatalogTool } from '../shared/status';
import { failureText, type Words } from './cli-words';
import { displayWidth, padDisplay, shortenDisplay as shorten } from './display-width';

/** The catalog as xiaozhi receives it: names, the server each tool comes from, sizes, pages. */
export function printCatalog(
  words: Words,
  state: BridgeState,
  pages: Page[],
  catalog: CatalogTool[],
  maxBytes: number,
  json: boolean,
): string {
  const byName = new Map(catalog.map((t) => [t.name, t]));
  if (json) {
    return JSON.stringify(
      {
        servers: state.servers.map((s) => ({
          name: s.name,
          state: s.state,
          tools: s.toolCount,
          ...(s.lastError ? { error: s.lastError } : {}),
        })),
        pages: pages.map((p) => ({
          tools: p.tools.map((t) => ({
            ...t.tool,
            server: byName.get(t.tool.name)?.server,
            originalName: byName.get(t.tool.name)?.originalName,
          })),
          bytes: p.tools.reduce((n, t) => n + t.bytes, 0),
          nextCursor: p.nextCursor,
        })),
        disabled: catalog.filter((t) => !t.enabled).map((t) => ({ name: t.name, server: t.server })),
        toolCount: state.catalog.toolCount,
        bytes: state.catalog.bytes,
        maxMessageBytes: maxBytes,
      },
      null,
      2,
    );
  }
  const { t } = words;
  const lines: string[] = [];
  for (const server of state.servers) {
    const error = server.lastError ? `: ${failureText(words, server.lastErrorCause, server.lastError)}` : '';
    const detail = server.state === 'running' ? t('cli.tools.count', { count: server.toolCount }) : `${stateWord(t, server.state)}${error}`;
    lines.push(t('cli.tools.server', { name: server.name, transport: server.transport, detail }));
  }
  // Where each tool comes from: its server, and its own name there when xiaozhi sees another.
  const origin = (c: CatalogTool) => shorten(`${c.server}${c.originalName !== c.name ? `:${c.originalName}` : ''}`, 32);
  const originWidth = Math.max(6, displayWidth(t('cli.tools.colFrom')), ...catalog.map((c) => displayWidth(origin(c))));
  lines.push('');
  pages.forEach((page, index) => {
    const heading = t('cli.tools.page', { page: index + 1, pages: pages.length });
    lines.push(`${heading}${page.nextCursor ? t('cli.tools.next', { cursor: page.nextCursor }) : ''}`);
    // The columns' names, padded as the rows are (a Chinese heading takes two columns a character).
    lines.push(
      `  ${padDisplay(t('cli.tools.colName'), 32)} ${padStartDisplay(t('cli.tools.colSize'), 8)}  ${padDisplay(t('cli.tools.colFrom'), originWidth)}  ${t('cli.tools.colDescription')}`.trimEnd(),
    );
    for (const { tool, bytes } of page.tools) {
      const source = byName.get(tool.name);
      lines.push(
        `  ${padDisplay(tool.name, 32)} ${String(bytes).padStart(6)} B  ${padDisplay(source ? origin(source) : '', originWidth)}  ${shorten(tool.description, 60)}`,
      );
    }
  });
  const off = catalog.filter((c) => !c.enabled);
  if (off.length > 0) lines.push('', t('cli.tools.off', { tools: off.map((o) => `${o.name} (${o.server})`).join(', ') }));
  lines.push('');
  lines.push(t('cli.tools.total', { count: state.catalog.toolCount, bytes: state.catalog.bytes, pages: pages.length, max: maxBytes }));
  return lines.join('\n');
}

/** A server's state in the reader's language (running, 运行中…), or as the engine named it. */
export function stateWord(t: Translate, state: string): string {
  const key = `cli.state.${state}`;
  return hasMessage(key) ? t(key) : state;
}

const padStartDisplay = (text: string, width: number) => ' '.repeat(Math.max(0, width - displayWidth(text))) + text;
