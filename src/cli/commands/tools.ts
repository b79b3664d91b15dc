import { stringOption } from '../../main/core/command-line/args';
import type { ToolMode } from '../../shared/settings';
import { type Command, TOOL_MODE_OPTION } from '../command';
import { endpointOption, LOOK_OPTIONS, lookAtServers } from '../headless-bridge';
import { printCatalog } from '../print-catalog';

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'cli.tools.summary',
  usage: ['tools --config FILE [--json] [--tool-mode auto|all|router] [--endpoint NAME] [--wait SECONDS]'],
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
        ctx.out(ctx.t('cli.tools.none'));
        return 0;
      }
      const endpoint = endpointOption(args, loaded.settings);
      const mode = {
        toolMode: (stringOption(args, 'tool-mode') ?? endpoint?.toolMode ?? (endpoint ? 'auto' : 'all')) as ToolMode,
        pinned: endpoint?.pinned ?? [],
        toolSet: endpoint?.toolSet,
      };
      const served = bridge.endpointCatalogs.summaryFor(mode);
      const servedMode = served.mode;
      const set = bridge.toolHub.forSet(mode.toolSet);
      if (endpoint && args.options.json !== true)
        ctx.out(
          ctx.t(servedMode === 'router' ? 'cli.tools.endpointRouter' : 'cli.tools.endpointAll', {
            endpoint: endpoint.name,
            set: set.name,
          }),
        );
      ctx.out(
        printCatalog(
          ctx,
          { ...state, catalog: served },
          bridge.endpointCatalogs.pagesFor(mode),
          set.catalog(),
          loaded.settings.limits.maxMessageBytes,
          args.options.json === true,
        ),
      );
      if (servedMode === 'router' && args.options.json !== true) ctx.out(ctx.t('cli.tools.router', { count: served.searchable }));
      const { budgetTools, budgetBytes } = loaded.settings.limits;
      if (servedMode === 'all' && args.options.json !== true && (served.toolCount > budgetTools || served.bytes > budgetBytes)) {
        ctx.out(ctx.t('cli.tools.overBudget', { tools: budgetTools, bytes: budgetBytes }));
      }
      return state.servers.some((s) => s.enabled && s.state !== 'running') ? 1 : 0;
    });
  },
};
