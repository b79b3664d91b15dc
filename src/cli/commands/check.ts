import { formatProblem } from '../../main/core/config/json-text';
import { countOf } from '../../shared/count-words';
import { ALLOW_ENV_OPTION, CONFIG_OPTION, allowEnvArg, configArg, type Command } from '../command';
import { configFileOr, loadOrExplain } from '../config-file';
import { commandWarnings } from '../../main/core/config/command-warnings';

export const checkCommand: Command = {
  name: 'check',
  summary: 'cli.check.summary',
  usage: ['check --config FILE'],
  options: [CONFIG_OPTION, ALLOW_ENV_OPTION],
  details: 'cli.check.details',
  async run(args, ctx) {
    const file = configFileOr(configArg(args), ctx);
    const loaded = loadOrExplain(ctx, file, 'check', allowEnvArg(args));
    if (!loaded) return 1;
    for (const warning of [...loaded.warnings, ...commandWarnings(loaded.settings, ctx.env)]) ctx.out(`warning: ${formatProblem(warning)}`);
    const s = loaded.settings;
    ctx.out(`${file}: valid ${loaded.format} config: ${countOf(s.endpoints.length, 'endpoint')}, ${countOf(s.servers.length, 'server')}`);
    return 0;
  },
};
