import { commandWarnings } from '../../main/core/config/command-warnings';
import { ALLOW_ENV_OPTION, allowEnvArg, type Command, CONFIG_OPTION, configArg } from '../command';
import { configFileOr, configProblemText, loadOrExplain } from '../config-file';

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
    for (const warning of [...loaded.warnings, ...commandWarnings(loaded.settings, ctx.env)])
      ctx.out(ctx.t('cli.check.warning', { warning: configProblemText(ctx.t, warning) }));
    const s = loaded.settings;
    ctx.out(
      ctx.t('cli.check.valid', { file: file ?? '', format: loaded.format, endpoints: s.endpoints.length, servers: s.servers.length }),
    );
    return 0;
  },
};
