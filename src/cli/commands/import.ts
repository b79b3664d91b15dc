import fs from 'node:fs';
import path from 'node:path';

import { stringOption, UsageError } from '../../main/core/command-line/args';
import { FileSettingsStore } from '../../main/core/config/settings-store';
import { ImportError } from '../../main/core/import/apply-import';
import type { ImportSessions as Sessions } from '../../main/core/import/import-sessions';
import { ImportSessions } from '../../main/core/import/import-sessions';
import { redactText, secretQueryValues } from '../../main/core/logs/redact';
import type { ImportPreview } from '../../shared/import';
import { MASK_MARKER } from '../../shared/masked';
import { defaultSettings, type Settings } from '../../shared/settings';
import type { CliContext, Command } from '../command';
import { configProblemText, loadOrExplain, madePrivate } from '../config-file';
import { CODE_ENV_OPTION, INPUT_OPTION, inputValues, USE_ENV_OPTION, useEnvIds } from '../import-inputs';
import { codeEnvRefusal, codeEnvServers, describePreview, missingInputs, nameList } from '../import-preview-text';
import { checkEndpoint, sayCleaned } from './init';

/** `import wss://…`: FILE is the endpoint itself, never a path to look for. */
const ENDPOINT_URL = /^\s*["'“]?wss?:\/\/|^\s*(?:export\s+)?MCP_ENDPOINT=/i;

/** The preview of FILE: a file, or an endpoint URL (shown as "endpoint URL", its token never printed). */
function previewSource(sessions: Sessions, source: string, ctx: CliContext, current: Settings): ImportPreview {
  if (!ENDPOINT_URL.test(source)) return sessions.previewFile(path.resolve(ctx.cwd, source), current);
  const checked = checkEndpoint(source);
  if ('problem' in checked) throw new Error(`The endpoint URL ${checked.problem}.`);
  sayCleaned(ctx, checked.removed);
  return sessions.preview('endpoint URL', checked.url, current);
}

/** The settings already in TARGET (a new file starts empty), or undefined after explaining why not. */
export function targetSettings(ctx: CliContext, target: string): Settings | undefined {
  if (!fs.existsSync(path.resolve(ctx.cwd, target))) return defaultSettings();
  const loaded = loadOrExplain(ctx, target, 'import');
  if (!loaded) return undefined;
  if (loaded.format !== 'xiaozhi-tray') {
    ctx.err(ctx.t('cli.import.notOurs', { target, format: loaded.format }));
    return undefined;
  }
  return loaded.settings;
}

export const importCommand: Command = {
  name: 'import',
  summary: 'cli.import.summary',
  usage: ['import FILE --config TARGET [--yes] [--input ID=VALUE]… [--use-env NAME]… [--allow-code-env]'],
  options: [
    { name: 'config', value: 'TARGET', help: 'cli.import.opt.config' },
    { name: 'yes', help: 'cli.import.opt.yes' },
    INPUT_OPTION,
    USE_ENV_OPTION,
    CODE_ENV_OPTION,
  ],
  details: 'cli.import.details',
  async run(args, ctxIn) {
    const source = args.positionals[0];
    // The token of an endpoint given as FILE is known now: nothing printed below may show it.
    const secrets = source && ENDPOINT_URL.test(source) ? secretQueryValues(source.trim()) : [];
    // Masked last, then said as the reader's language says it ("…（已隐藏）"): the redaction would take that for a secret again.
    const shown = (text: string) => redactText(text, secrets).replaceAll(MASK_MARKER, ctxIn.t('common.masked'));
    const ctx: CliContext = { ...ctxIn, out: (text) => ctxIn.out(shown(text)), err: (text) => ctxIn.err(shown(text)) };
    const target = stringOption(args, 'config');
    if (!source || !target) throw UsageError.of('cli.import.needsConfig');
    const current = targetSettings(ctx, target);
    if (!current) return 1;
    const sessions = new ImportSessions(ctx.env);
    let preview;
    try {
      preview = previewSource(sessions, source, ctx, current);
    } catch (error) {
      if (error instanceof ImportError && error.problems) {
        ctx.err(ctx.t('cli.import.notReadable', { source }));
        for (const problem of error.problems) ctx.err(`  - ${configProblemText(ctx.t, problem)}`);
        ctx.err(ctx.t('cli.import.notReadableAction'));
      } else ctx.err(ctx.t('cli.import.failed', { error: error instanceof Error ? error.message : String(error) }));
      return 1;
    }
    const inputs = inputValues(args, (line) => ctx.err(`warning: ${line}`));
    const fromEnvironment = useEnvIds(args);
    const given = new Set([...Object.keys(inputs), ...fromEnvironment]);
    ctx.out(describePreview(preview, given, ctx.t));
    if (args.options.yes !== true) {
      const missing = missingInputs(preview, given);
      const inEnvironment = preview.inputs
        .filter((i) => missing.includes(i.id) && i.fromEnvironment !== undefined)
        .map((i) => i.id.slice(4));
      const fromShell =
        inEnvironment.length > 0
          ? ctx.t('cli.import.fromShell', { flags: inEnvironment.map((name) => `--use-env ${name}`).join(' ') })
          : '';
      const values = missing.map((id) => `${id}=…`).join(' ');
      ctx.out(
        `\n${missing.length > 0 ? ctx.t('cli.import.nothingWrittenNeeds', { values, fromShell, target }) : ctx.t('cli.import.nothingWritten', { target })}`,
      );
      return 0;
    }
    const runsCode = codeEnvServers(preview);
    if (runsCode.length > 0 && args.options['allow-code-env'] !== true) {
      ctx.err(
        `\n${codeEnvRefusal(
          ctx.t,
          runsCode.map((item) => ctx.t('cli.preview.setsCode', { name: item.server.name, vars: item.codeEnv.join(', ') })),
        )}`,
      );
      return 1;
    }
    try {
      const applied = sessions.apply({ id: preview.id, inputs, fromEnvironment }, current);
      const store = new FileSettingsStore(path.resolve(ctx.cwd, target), current, {
        onMadePrivate: (previous) => ctx.err(madePrivate(target, previous, ctx.t)),
      });
      store.save(applied.settings);
      await store.settled();
      const r = applied.result;
      const counts = {
        added: r.addedServers.length,
        replaced: r.replacedServers.length,
        endpoints: r.addedEndpoints.length,
        skipped: r.skipped,
      };
      const names = (
        key: 'cli.import.added' | 'cli.import.replacedNames' | 'cli.import.endpointNames' | 'cli.import.skippedNames',
        list: string[],
      ) => (list.length > 0 ? [ctx.t(key, { names: nameList(ctx.t, list) })] : []);
      ctx.out(
        [
          `\n${ctx.t('cli.import.done', { target, ...counts })}`,
          ...names('cli.import.added', r.addedServers),
          ...names('cli.import.replacedNames', r.replacedServers),
          ...names('cli.import.endpointNames', r.addedEndpoints),
          ...names('cli.import.skippedNames', r.skippedNames),
        ].join('\n'),
      );
      return 0;
    } catch (error) {
      ctx.err(ctx.t('cli.import.failed', { error: error instanceof Error ? error.message : String(error) }));
      return 1;
    }
  },
};
