import { stringOption, UsageError } from '../../main/core/command-line/args';
import { exportConfig } from '../../main/core/import/export-config';
import { type ExportFormat, ExportFormatSchema } from '../../shared/import';
import { ALLOW_ENV_OPTION, allowEnvArg, type Command, CONFIG_OPTION, configArg } from '../command';
import { configFileOr, loadOrExplain } from '../config-file';
import { exportEntryContext } from '../local-server-flags';

export const exportCommand: Command = {
  name: 'export',
  summary: 'cli.export.summary',
  usage: [
    'export --config FILE [--format mcp-servers|xiaozhi-client] > OUT.json',
    'export --config FILE --format cursor|claude-desktop|vscode|cherry-studio [--mcp-port N --mcp-token-file FILE]',
  ],
  options: [
    CONFIG_OPTION,
    ALLOW_ENV_OPTION,
    {
      name: 'format',
      value: 'FORMAT',
      choices: ExportFormatSchema.options,
      help: 'cli.export.opt.format',
    },
    { name: 'mcp-port', value: 'N', help: 'cli.export.opt.mcp-port' },
    {
      name: 'mcp-token-file',
      value: 'FILE',
      help: 'cli.export.opt.mcp-token-file',
    },
    {
      name: 'mcp-token',
      value: 'T',
      help: 'cli.export.opt.mcp-token',
    },
  ],
  details: 'cli.export.details',
  async run(args, ctx) {
    const format = (stringOption(args, 'format') ?? 'mcp-servers') as ExportFormat;
    const localFlag = (['mcp-port', 'mcp-token-file', 'mcp-token'] as const).find((name) => args.options[name] !== undefined);
    if (localFlag && (format === 'mcp-servers' || format === 'xiaozhi-client'))
      throw UsageError.of('cli.export.clientFlag', { flag: `--${localFlag}` });
    const loaded = loadOrExplain(ctx, configFileOr(configArg(args), ctx), 'export', allowEnvArg(args));
    if (!loaded) return 1;
    try {
      const secrets = {
        env: ctx.env,
        cwd: ctx.cwd,
        t: ctx.t,
        warn: (line: string) => ctx.err(ctx.t('cli.check.warning', { warning: line })),
      };
      ctx.stdout.write(exportConfig(loaded.settings, format, () => exportEntryContext(loaded.settings, args.options, secrets)).text);
      return 0;
    } catch (error) {
      const said = error instanceof UsageError ? error.say(ctx.t) : error instanceof Error ? error.message : String(error);
      ctx.err(ctx.t('cli.export.failed', { error: said }));
      return 1;
    }
  },
};
