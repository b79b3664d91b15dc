import { stringOption } from '../args';
import { TOOL_MODE_OPTION, type Command } from '../command';
import type { ToolMode } from '../../shared/settings';
import { LOOK_OPTIONS, endpointOption, lookAtServers } from '../headless-bridge';
import { printCatalog } from '../print-catalog';

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'cli.tools.summary',
  usage: ['tools --config FILE [--json] [--tool-mode all|router] [--endpoint NAME]'],
  options: [
    ...LOOK_OPTIONS,
    TOOL_MODE_OPTION,
    {
      name: 'endpoint',
      value: 'NAME',
      help: 'cli.tools.opt.endpoint',
    },
  ],
  details: 'cli.tools.details',
  run: (args, ctx) => {
    return lookAtServers(args, ctx, 'tools', async ({ bridge }, loaded) => {
      const state = bridge.state();
      if (state.servers.length === 0 && args.options.json !== true) {
        ctx.out(
          'No servers are configured, so xiaozhi gets no tools. Add some with "xiaozhi-tray import FILE --config …" or in the web UI (run --ui).',
        );
        return 0;
      }
      const endpoint = endpointOption(args, loaded.settings);
      const mode = {
        toolMode: (stringOption(args, 'tool-mode') ?? endpoint?.toolMode ?? 'all') as ToolMode,
        pinned: endpoint?.pinned ?? [],
        toolSet: endpoint?.toolSet,
      };
      const served = bridge.endpointCatalogs.summaryFor(mode);
      const set = bridge.toolHub.forSet(mode.toolSet);
      if (endpoint && args.options.json !== true)
        ctx.out(`endpoint ${endpoint.name}: tool set ${set.name}, ${mode.toolMode === 'router' ? 'router mode' : 'every tool that is on'}`);
      ctx.out(
        printCatalog(
          { ...state, catalog: served },
          bridge.endpointCatalogs.pagesFor(mode),
          set.catalog(),
          loaded.settings.limits.maxMessageBytes,
          args.options.json === true,
        ),
      );
      if (mode.toolMode === 'router' && args.options.json !== true) ctx.out(`router mode: find_tools searches ${served.searchable} tools`);
      const { budgetTools, budgetBytes } = loaded.settings.limits;
      if (mode.toolMode === 'all' && args.options.json !== true && (served.toolCount > budgetTools || served.bytes > budgetBytes)) {
        ctx.out(
          `past the budget of ${budgetTools} tools / ${budgetBytes} bytes (limits.budgetTools, limits.budgetBytes): xiaozhi may drop or fail the list. Switch tools off, or see router mode with --tool-mode router`,
        );
      }
      return state.servers.some((s) => s.enabled && s.state !== 'running') ? 1 : 0;
    });
  },
};
