import { stringOption } from '../args';
import { TOOL_MODE_OPTION, type Command } from '../command';
import type { ToolMode } from '../../shared/settings';
import { LOOK_OPTIONS, lookAtServers } from '../headless-bridge';
import { printCatalog } from '../print-catalog';

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'start the servers and print the tools exactly as xiaozhi gets them, with the server of each',
  usage: ['tools --config FILE [--json] [--tool-mode all|router]'],
  options: [...LOOK_OPTIONS, TOOL_MODE_OPTION],
  details: 'Nothing is served to xiaozhi. Exits 1 when an enabled server did not start.',
  run: (args, ctx) =>
    lookAtServers(args, ctx, 'tools', async ({ bridge }, loaded) => {
      const state = bridge.state();
      const mode = { toolMode: (stringOption(args, 'tool-mode') ?? 'all') as ToolMode, pinned: [] };
      const served = bridge.endpointCatalogs.summaryFor(mode);
      ctx.out(printCatalog({ ...state, catalog: served }, bridge.endpointCatalogs.pagesFor(mode), bridge.toolHub.catalog(), loaded.settings.limits.maxMessageBytes, args.options.json === true));
      if (mode.toolMode === 'router' && args.options.json !== true) ctx.out(`router mode: find_tools searches ${served.searchable} tools`);
      const { budgetTools, budgetBytes } = loaded.settings.limits;
      if (mode.toolMode === 'all' && args.options.json !== true && (served.toolCount > budgetTools || served.bytes > budgetBytes)) {
        ctx.out(`past the budget of ${budgetTools} tools / ${budgetBytes} bytes (limits.budgetTools, limits.budgetBytes): xiaozhi may drop or fail the list. Switch tools off, or see router mode with --tool-mode router`);
      }
      return state.servers.some((s) => s.enabled && s.state !== 'running') ? 1 : 0;
    }),
};
