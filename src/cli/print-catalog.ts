import type { Page } from '../main/core/hub/tool-pages';
import { countOf } from '../shared/count-words';
import type { BridgeState, CatalogTool } from '../shared/status';
import { displayWidth, padDisplay, shortenDisplay as shorten } from './display-width';

/** The catalog as xiaozhi receives it: names, the server each tool comes from, sizes, pages. */
export function printCatalog(state: BridgeState, pages: Page[], catalog: CatalogTool[], maxBytes: number, json: boolean): string {
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
  const lines: string[] = [];
  for (const server of state.servers) {
    const detail =
      server.state === 'running' ? `${server.toolCount} tools` : `${server.state}${server.lastError ? `: ${server.lastError}` : ''}`;
    lines.push(`server ${server.name} (${server.transport}): ${detail}`);
  }
  // Where each tool comes from: its server, and its own name there when xiaozhi sees another.
  const origin = (t: CatalogTool) => shorten(`${t.server}${t.originalName !== t.name ? `:${t.originalName}` : ''}`, 32);
  const originWidth = Math.max(6, ...catalog.map((t) => displayWidth(origin(t))));
  lines.push('');
  pages.forEach((page, index) => {
    lines.push(`page ${index + 1} of ${pages.length}${page.nextCursor ? ` (next: ${page.nextCursor})` : ''}`);
    for (const { tool, bytes } of page.tools) {
      const source = byName.get(tool.name);
      lines.push(
        `  ${padDisplay(tool.name, 32)} ${String(bytes).padStart(6)} B  ${padDisplay(source ? origin(source) : '', originWidth)}  ${shorten(tool.description, 60)}`,
      );
    }
  });
  const off = catalog.filter((t) => !t.enabled);
  if (off.length > 0) lines.push('', `turned off (not served): ${off.map((t) => `${t.name} (${t.server})`).join(', ')}`);
  lines.push('');
  lines.push(
    `${countOf(state.catalog.toolCount, 'tool')}, ${state.catalog.bytes} bytes in ${countOf(pages.length, 'page')} of at most ${maxBytes} bytes`,
  );
  return lines.join('\n');
}
