import { CONFIG_OPTION, JSON_OPTION, configArg, logOptions, type Command } from '../command';
import { loadOrExplain } from '../config-file';
import { withServers } from '../headless-bridge';
import { logChoice } from '../log-output';
import { printCatalog } from '../print-catalog';

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'start the servers and print the tools exactly as xiaozhi gets them, with the server of each',
  usage: ['tools --config FILE [--json]'],
  options: [CONFIG_OPTION, JSON_OPTION, ...logOptions('warn', 'stderr')],
  details: 'Nothing is served to xiaozhi. Exits 1 when an enabled server did not start.',
  async run(args, ctx) {
    const loaded = loadOrExplain(ctx, configArg(args), 'tools');
    if (!loaded) return 1;
    return withServers(ctx, loaded.settings, logChoice(args, 'warn'), async ({ bridge }) => {
      const state = bridge.state();
      ctx.out(printCatalog(state, bridge.toolHub.pages(), bridge.toolHub.catalog(), loaded.settings.limits.maxMessageBytes, args.options.json === true));
      return state.servers.some((s) => s.enabled && s.state !== 'running') ? 1 : 0;
    });
  },
};
