import type { Command } from '../command';
import { LOOK_OPTIONS, lookAtServers } from '../headless-bridge';
import { printCatalog } from '../print-catalog';

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'start the servers and print the tools exactly as xiaozhi gets them, with the server of each',
  usage: ['tools --config FILE [--json]'],
  options: LOOK_OPTIONS,
  details: 'Nothing is served to xiaozhi. Exits 1 when an enabled server did not start.',
  run: (args, ctx) =>
    lookAtServers(args, ctx, 'tools', async ({ bridge }, loaded) => {
      const state = bridge.state();
      ctx.out(printCatalog(state, bridge.toolHub.pages(), bridge.toolHub.catalog(), loaded.settings.limits.maxMessageBytes, args.options.json === true));
      return state.servers.some((s) => s.enabled && s.state !== 'running') ? 1 : 0;
    }),
};
