import { exportConfig } from '../../main/core/import/export-config';
import { ExportFormatSchema, type ExportFormat } from '../../shared/import';
import { stringOption } from '../args';
import { CONFIG_OPTION, configArg, type Command } from '../command';
import { loadOrExplain } from '../config-file';

export const exportCommand: Command = {
  name: 'export',
  summary: 'print the servers as a file other tools read (mcpServers, or xiaozhi-client)',
  usage: ['export --config FILE [--format mcp-servers|xiaozhi-client] > OUT.json'],
  options: [
    CONFIG_OPTION,
    { name: 'format', value: 'FORMAT', choices: ExportFormatSchema.options, help: 'mcp-servers (default: Claude Desktop, Cursor…) or xiaozhi-client (xiaozhi.config.json)' },
  ],
  details: 'The output holds the real values (keys, tokens): it is your own file.',
  async run(args, ctx) {
    const loaded = loadOrExplain(ctx, configArg(args), 'export');
    if (!loaded) return 1;
    const format = (stringOption(args, 'format') ?? 'mcp-servers') as ExportFormat;
    process.stdout.write(exportConfig(loaded.settings, format).text);
    return 0;
  },
};
