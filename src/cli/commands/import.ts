import fs from 'node:fs';
import { countOf } from '../../shared/count-words';
import path from 'node:path';
import { FileSettingsStore } from '../../main/core/config/settings-store';
import { describePreview, missingInputs } from '../../main/core/import/import-preview';
import { ImportSessions } from '../../main/core/import/import-sessions';
import { defaultSettings, type Settings } from '../../shared/settings';
import { stringOption, UsageError } from '../args';
import type { Command, CliContext } from '../command';
import { loadOrExplain, madePrivate } from '../config-file';
import { inputValues, INPUT_OPTION } from '../import-inputs';

/** The settings already in TARGET (a new file starts empty), or undefined after explaining why not. */
export function targetSettings(ctx: CliContext, target: string): Settings | undefined {
  if (!fs.existsSync(path.resolve(ctx.cwd, target))) return defaultSettings();
  const loaded = loadOrExplain(ctx, target, 'import');
  if (!loaded) return undefined;
  if (loaded.format !== 'xiaozhi-tray') {
    ctx.err(`${target} is a ${loaded.format} config; only Xiaozhi Tray configs are written. Choose a new file for --config.`);
    return undefined;
  }
  return loaded.settings;
}

export const importCommand: Command = {
  name: 'import',
  summary: 'preview importing another app\'s MCP config into yours; writes only with --yes',
  usage: ['import FILE --config TARGET [--yes] [--input ID=VALUE]…'],
  options: [
    { name: 'config', value: 'TARGET', help: 'the Xiaozhi Tray config to import into (created if missing)' },
    { name: 'yes', help: 'write the result (atomically); without it nothing is written' },
    INPUT_OPTION,
  ],
  details: [
    'FILE may be Claude Desktop\'s, Cursor\'s, VS Code\'s, Windsurf\'s, Cline\'s or Codex\'s config, xiaozhi-client\'s',
    'xiaozhi.config.json, the official example\'s mcp_config.json, a bare server snippet or an endpoint URL.',
    'Conflicts (same name, same command, same URL) are shown with what will happen to each.',
  ].join('\n'),
  async run(args, ctx) {
    const source = args.positionals[0];
    const target = stringOption(args, 'config');
    if (!source || !target) throw new UsageError('import needs a FILE to import and --config TARGET: xiaozhi-tray import FILE --config TARGET [--yes]');
    const current = targetSettings(ctx, target);
    if (!current) return 1;
    const sessions = new ImportSessions(ctx.env);
    let preview;
    try {
      preview = sessions.previewFile(path.resolve(ctx.cwd, source), current);
    } catch (error) {
      ctx.err(error instanceof Error ? error.message : String(error));
      return 1;
    }
    const inputs = inputValues(args);
    ctx.out(describePreview(preview, inputs));
    if (args.options.yes !== true) {
      const missing = missingInputs(preview, inputs);
      ctx.out(
        missing.length > 0
          ? `\nNothing was written. Give the missing values with --input (${missing.map((id) => `${id}=…`).join(' ')}), then run again with --yes to import into ${target}.`
          : `\nNothing was written. Run again with --yes to import into ${target}.`,
      );
      return 0;
    }
    try {
      const applied = sessions.apply({ id: preview.id, inputs }, current);
      new FileSettingsStore(path.resolve(ctx.cwd, target), current, { onMadePrivate: (previous) => ctx.err(madePrivate(target, previous)) }).save(applied.settings);
      const r = applied.result;
      ctx.out(`\nImported into ${target}: ${countOf(r.addedServers.length, 'server')} added, ${r.replacedServers.length} replaced, ${countOf(r.addedEndpoints.length, 'endpoint')}, ${r.skipped} skipped.`);
      return 0;
    } catch (error) {
      ctx.err(error instanceof Error ? error.message : String(error));
      return 1;
    }
  },
};
