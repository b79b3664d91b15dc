import type { Page } from '../main/core/hub/tool-pages';
import type { BridgeState } from '../shared/status';

/** The catalog as xiaozhi receives it: names, descriptions, sizes, pages. */
export function printCatalog(state: BridgeState, pages: Page[], maxBytes: number, json: boolean): string {
  if (json) {
    return JSON.stringify(
      {
        servers: state.servers.map((s) => ({ name: s.name, state: s.state, tools: s.toolCount, ...(s.lastError ? { error: s.lastError } : {}) })),
        pages: pages.map((p) => ({ tools: p.tools.map((t) => t.tool), bytes: p.tools.reduce((n, t) => n + t.bytes, 0), nextCursor: p.nextCursor })),
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
    const detail = server.state === 'running' ? `${server.toolCount} tools` : `${server.state}${server.lastError ? `: ${server.lastError}` : ''}`;
    lines.push(`server ${server.name} (${server.transport}): ${detail}`);
  }
  lines.push('');
  pages.forEach((page, index) => {
    lines.push(`page ${index + 1} of ${pages.length}${page.nextCursor ? ` (next: ${page.nextCursor})` : ''}`);
    for (const { tool, bytes } of page.tools) {
      const description = tool.description.replace(/\s+/g, ' ');
      lines.push(`  ${tool.name.padEnd(32)} ${String(bytes).padStart(6)} B  ${description.length > 70 ? `${description.slice(0, 69)}…` : description}`);
    }
  });
  lines.push('');
  lines.push(`${state.catalog.toolCount} tools, ${state.catalog.bytes} bytes in ${pages.length} page(s) of at most ${maxBytes} bytes`);
  return lines.join('\n');
}
