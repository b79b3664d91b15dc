import { exportConfig } from '../../main/core/import/export-config';
import { ExportFormatSchema, type ExportFormat } from '../../shared/import';
import { stringOption, UsageError } from '../args';
import { ALLOW_ENV_OPTION, CONFIG_OPTION, allowEnvArg, configArg, tokenOptions, type Command } from '../command';
import { configFileOr, loadOrExplain } from '../config-file';
import { exportEntryContext } from '../local-server-flags';

export const exportCommand: Command = {
  name: 'export',
  summary: "print the servers as a file other tools read, or this app as an entry of a client's config",
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
      help: "mcp-servers (default: Claude Desktop, Cursor…), xiaozhi-client (xiaozhi.config.json), or cursor, claude-desktop, vscode, cherry-studio: the local MCP server as that client's entry",
    },
    { name: 'mcp-port', value: 'N', help: "the local MCP server's port for a client entry (default: the config's, or the running app's)" },
    ...tokenOptions('mcp-token', "a file holding its token (default: XIAOZHI_TRAY_MCP_TOKEN, the config's, or the running app's)"),
  ],
  details: 'The output holds the real values (keys, tokens): it is your own file.',
  async run(args, ctx) {
    const format = (stringOption(args, 'format') ?? 'mcp-servers') as ExportFormat;
    const localFlag = ['mcp-port', 'mcp-token-file', 'mcp-token'].find((name) => args.options[name] !== undefined);
    if (localFlag && (format === 'mcp-servers' || format === 'xiaozhi-client'))
      throw new UsageError(`--${localFlag} is for a client entry: add --format cursor, claude-desktop, vscode or cherry-studio`);
    const loaded = loadOrExplain(ctx, configFileOr(configArg(args), ctx), 'export', allowEnvArg(args));
    if (!loaded) return 1;
    try {
      const secrets = { env: ctx.env, cwd: ctx.cwd, warn: (line: string) => ctx.err(`warning: ${line}`) };
      process.stdout.write(exportConfig(loaded.settings, format, () => exportEntryContext(loaded.settings, args.options, secrets)).text);
      return 0;
    } catch (error) {
      ctx.err(error instanceof Error ? error.message : String(error));
      return 1;
    }
  },
};
