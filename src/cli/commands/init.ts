import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { orList, stringOption, UsageError } from '../../main/core/command-line/args';
import { secretOption } from '../../main/core/command-line/secret-input';
import { ConfigError, formatProblem } from '../../main/core/config/json-text';
import { loadConfigFile } from '../../main/core/config/load-config';
import { FileSettingsStore } from '../../main/core/config/settings-store';
import { discoverClients } from '../../main/core/import/discover-clients';
import { ImportSessions } from '../../main/core/import/import-sessions';
import { redactUrl, secretQueryValues } from '../../main/core/logs/redact';
import { cleanEndpointUrl, type EndpointUrlDebris, type EndpointUrlRefusal } from '../../shared/endpoint-url';
import { translate } from '../../shared/i18n/translate';
import type { ImportPreview, KnownClient } from '../../shared/import';
import { type NameRecord, nameRecord } from '../../shared/own';
import { defaultSettings, type Settings } from '../../shared/settings';
import type { CliContext, Command } from '../command';
import { DEFAULT_CONFIG, madePrivate } from '../config-file';
import { CODE_ENV_OPTION, INPUT_OPTION, inputValues, USE_ENV_OPTION, useEnvIds } from '../import-inputs';
import { codeEnvRefusal, nameList, serverDetails } from '../import-preview-text';
import { Prompter } from '../prompt';
import { closest } from '../suggest';

const DEFAULT_FILE = DEFAULT_CONFIG;

interface Found {
  client: KnownClient['client'];
  label: string;
  path: string;
  preview: ImportPreview;
}

/** Thrown when a question gets no answer (stdin closed): nothing is written. */
class NoAnswer extends Error {}

/** Thrown under --yes when a chosen server sets env that runs code, without --allow-code-env: nothing is written. */
class CodeEnvRefused extends Error {}

const clientLabel = (client: KnownClient['client']) => translate('en', `format.${client}`);

const REFUSED_ENDPOINT: Record<EndpointUrlRefusal, string> = {
  empty: 'is empty',
  spaces: 'has a line break, a tab or a space inside; copy it again as one line',
  extraText: 'has other text before the address; paste the address alone',
  several: 'holds more than one address; paste one',
  scheme: 'must be a ws:// or wss:// URL',
  invalid: 'must be a ws:// or wss:// URL',
};

/**
 * The endpoint as typed or pasted, with what a paste brings along taken off (quotes, `MCP_ENDPOINT=`,
 * a trailing quote: `removed`); or what is wrong with it. A line break, a tab or a space inside is
 * refused: the URL parser would quietly drop or encode it into the token (a paste that wrapped, or
 * two URLs on one line).
 */
export function checkEndpoint(typed: string): { url: string; removed: EndpointUrlDebris[] } | { problem: string } {
  const cleaned = cleanEndpointUrl(typed);
  return cleaned.ok ? { url: cleaned.url, removed: cleaned.removed } : { problem: REFUSED_ENDPOINT[cleaned.reason] };
}

/** "Note: took quotes off the endpoint URL.", when a paste brought any along. */
export function sayCleaned(ctx: CliContext, removed: readonly EndpointUrlDebris[]): void {
  if (removed.length === 0) return;
  const what = removed.map((debris) => ctx.t(`endpoints.debris.${debris}`)).join(ctx.t('list.separator'));
  ctx.err(ctx.t('cli.init.endpointCleaned', { what }));
}

/** A config path that names a folder gets a sentence, not EISDIR. */
function folderProblem(file: string, target: string): string | undefined {
  try {
    if (!fs.statSync(target).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  return `${file} is a folder, not a file. Name the file to write, e.g. --config ${path.join(file, DEFAULT_FILE)}`;
}

/** The MCP clients on this machine whose config could be read, with what importing each would add. */
function findClients(ctx: CliContext, sessions: ImportSessions): Found[] {
  const found: Found[] = [];
  for (const known of discoverClients({ platform: ctx.platform, env: ctx.env, home: ctx.home })) {
    if (!known.exists) continue;
    try {
      found.push({
        client: known.client,
        label: clientLabel(known.client),
        path: known.path,
        preview: sessions.previewFile(known.path, defaultSettings()),
      });
    } catch (error) {
      ctx.err(`  (skipped ${clientLabel(known.client)}, ${known.path}: ${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return found;
}

function describeFound(found: Found, ctx: CliContext): string {
  const names = found.preview.servers.map((s) => s.server.name);
  const shown = names.length > 6 ? `${names.slice(0, 6).join(', ')}, …` : names.join(', ');
  return `${found.label} — ${found.path}: ${ctx.t('plain.cli.servers', { count: names.length })}${names.length ? ` (${shown})` : ''}`;
}

/** `--import all|none|claude-desktop,cursor`, against what was found. */
function chooseByFlag(value: string, found: Found[], ctx: CliContext): Found[] {
  if (value === 'none') return [];
  if (value === 'all') return found;
  const ids = ['claude-desktop', 'cursor', 'vscode', 'windsurf', 'cline', 'codex', 'xiaozhi-client'];
  const chosen: Found[] = [];
  for (const id of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!ids.includes(id)) {
      const near = closest(id, [...ids, 'all', 'none']);
      throw new UsageError(
        `--import takes all, none or a list of ${ids.join(', ')}; "${id}" is none of them${near ? `. Did you mean ${near}?` : ''}`,
      );
    }
    const match = found.find((f) => f.client === id);
    if (match) chosen.push(match);
    else ctx.err(ctx.t('plain.cli.noClientConfig', { client: clientLabel(id as KnownClient['client']) }));
  }
  return chosen;
}

async function chooseByPrompt(prompter: Prompter, found: Found[], ctx: CliContext): Promise<Found[]> {
  ctx.out(`\n${ctx.t('cli.init.found')}`);
  found.forEach((f, i) => ctx.out(`  ${i + 1}) ${describeFound(f, ctx)}`));
  for (;;) {
    const answer = await prompter.ask(ctx.t('cli.init.whichImport'));
    if (answer === undefined) throw new NoAnswer();
    const text = answer.toLowerCase();
    if (text === '' || text === 'all') return found;
    if (text === 'none') return [];
    const picks = text
      .split(/[\s,，]+/)
      .filter(Boolean)
      .map(Number);
    if (picks.every((n) => Number.isInteger(n) && n >= 1 && n <= found.length))
      return [...new Set(picks)].map((n) => found[n - 1] as Found);
    ctx.out(ctx.t('cli.init.answerNumbers', { count: found.length }));
  }
}

async function askEndpoint(prompter: Prompter, ctx: CliContext): Promise<string | undefined> {
  ctx.out(ctx.t('cli.init.copyEndpoint'));
  for (;;) {
    // Its token is a secret: not shown as it is typed or pasted; what was read is shown with the token masked.
    const answer = await prompter.askSecret(ctx.t('cli.init.askEndpoint'));
    if (answer === undefined) throw new NoAnswer();
    if (answer.trim() === '') return undefined;
    const checked = checkEndpoint(answer);
    if ('url' in checked) {
      sayCleaned(ctx, checked.removed);
      ctx.out(ctx.t('cli.init.endpoint', { url: redactUrl(checked.url) }));
      return checked.url;
    }
    ctx.out(ctx.t('cli.init.badEndpoint', { problem: checked.problem }));
  }
}

/**
 * Adds the chosen clients' servers one file after another, each against what is already there (so
 * the same server in two apps is added once). A server that needs a value nobody gave is skipped.
 */
async function importChosen(
  chosen: Found[],
  start: Settings,
  inputs: NameRecord<string>,
  fromEnvironment: Set<string>,
  prompter: Prompter | undefined,
  ctx: CliContext,
  allowCodeEnv: boolean,
): Promise<Settings> {
  let settings = start;
  const sessions = new ImportSessions(ctx.env);
  const runsCode: string[] = [];
  for (const found of chosen) {
    const preview = sessions.previewFile(found.path, settings);
    // Keyed by the file's server names: no prototype (a server called __proto__ is one more server).
    const servers = nameRecord<{ action: 'skip' }>();
    // --use-env NAME counts where the environment offers NAME (set, and not one of our own secrets).
    const offered = new Set(preview.inputs.filter((i) => i.fromEnvironment !== undefined).map((i) => i.id));
    const has = (id: string) => Boolean(inputs[id]) || (fromEnvironment.has(id) && offered.has(id));
    for (const item of preview.servers) {
      // As `import` does: env that runs code before the server (NODE_OPTIONS…) is shown, and taken only when the user says so.
      if (item.action !== 'skip' && item.codeEnv.length > 0 && !allowCodeEnv) {
        ctx.out(ctx.t('cli.init.codeEnvShown', { name: item.server.name, label: found.label, vars: item.codeEnv.join(', ') }));
        ctx.out(serverDetails(item, ctx.t).join('\n'));
        const trusted = prompter ? await prompter.confirm(`  Import "${item.server.name}" anyway? / 仍要导入吗？`, false) : false;
        if (trusted === undefined) throw new NoAnswer();
        if (!trusted) {
          if (!prompter)
            runsCode.push(ctx.t('cli.preview.setsCodeOf', { name: item.server.name, label: found.label, vars: item.codeEnv.join(', ') }));
          servers[item.server.name] = { action: 'skip' };
          continue;
        }
      }
      for (const id of item.needs) {
        if (has(id) || inputs[id] !== undefined || item.action === 'skip') continue;
        const input = preview.inputs.find((i) => i.id === id);
        // A value in this shell's environment is offered masked; it is used only when the user says so.
        const offer = input?.fromEnvironment !== undefined ? `; "env" takes the one set here (${input.fromEnvironment})` : '';
        // A value for the file (an API key, a token) is read without echo; a folder is not a secret.
        const answer = prompter
          ? await prompter[id === 'workspaceFolder' ? 'ask' : 'askSecret'](
              `  Server "${item.server.name}" needs ${id} (${input?.description ?? id}${input?.where.length ? `, for ${input.where.join(', ')}` : ''}); value${offer}, or empty to skip the server / 请输入值${offer ? '；输入 env 则使用本机环境中的值' : ''}；留空则跳过此服务器: `,
            )
          : '';
        if (answer === undefined) throw new NoAnswer();
        if (offer && answer === 'env') fromEnvironment.add(id);
        else if (answer) inputs[id] = answer;
      }
      const missing = item.needs.filter((id) => !has(id));
      if (missing.length > 0 && item.action !== 'skip') {
        servers[item.server.name] = { action: 'skip' };
        const first = missing[0] as string;
        const hint = first.startsWith('env:')
          ? ctx.t('cli.init.giveOrUseEnv', { id: first, name: first.slice(4) })
          : ctx.t('cli.init.give', { id: first });
        const needs = ctx.language === 'en' ? orList(missing, 'and') : nameList(ctx.t, missing);
        ctx.err(ctx.t('cli.init.skippedNeeds', { name: item.server.name, label: found.label, needs, hint }));
      }
    }
    const applied = sessions.apply(
      { id: preview.id, servers, inputs, fromEnvironment: [...fromEnvironment].filter((id) => offered.has(id)) },
      settings,
    );
    const r = applied.result;
    ctx.out(
      `${ctx.t('cli.init.fromApp', { label: found.label })}${ctx.t('plain.cli.added', { count: r.addedServers.length })}${r.addedServers.length ? ctx.t('cli.init.addedNames', { names: nameList(ctx.t, r.addedServers) }) : ''}${r.skipped ? ctx.t('plain.cli.skipped', { count: r.skipped }) : ''}`,
    );
    settings = applied.settings;
  }
  if (runsCode.length > 0) throw new CodeEnvRefused(codeEnvRefusal(ctx.t, runsCode));
  return settings;
}

export const initCommand: Command = {
  name: 'init',
  summary: 'cli.init.summary',
  usage: [
    { line: 'init [--config FILE]                       ', note: 'cli.init.usage.asks' },
    { line: 'init --config FILE --endpoint-file FILE|- [--import all|none|APP,…] [--allow-code-env] --yes', note: 'cli.init.usage.yes' },
  ],
  options: [
    { name: 'config', value: 'FILE', help: 'cli.init.opt.config' },
    {
      name: 'endpoint-file',
      value: 'FILE',
      help: 'cli.init.opt.endpoint-file',
    },
    {
      name: 'endpoint',
      value: 'URL',
      help: 'cli.init.opt.endpoint',
    },
    {
      name: 'import',
      value: 'WHICH',
      help: 'cli.init.opt.import',
    },
    INPUT_OPTION,
    USE_ENV_OPTION,
    CODE_ENV_OPTION,
    { name: 'yes', help: 'cli.init.opt.yes' },
    { name: 'force', help: 'cli.init.opt.force' },
  ],
  details: 'cli.init.details',
  async run(args, ctx) {
    const file = stringOption(args, 'config') ?? DEFAULT_FILE;
    const target = path.resolve(ctx.cwd, file);
    const interactive = args.options.yes !== true;
    if (args.options['endpoint-file'] === '-' && interactive) throw UsageError.of('cli.init.stdinNeedsYes');
    // The endpoint URL carries its token: on the command line, other users see it.
    const endpointGiven = secretOption(
      args.options,
      { flag: 'endpoint', fileFlag: 'endpoint-file', holdsSecret: (url) => secretQueryValues(url).length > 0 },
      { env: ctx.env, cwd: ctx.cwd, t: ctx.t, warn: (line) => ctx.err(ctx.t('cli.check.warning', { warning: line })) },
    );
    const endpointChecked = endpointGiven === undefined ? undefined : checkEndpoint(endpointGiven);
    const importFlag = stringOption(args, 'import');
    const inputs = inputValues(args, (line) => ctx.err(`warning: ${line}`));
    if (endpointChecked && 'problem' in endpointChecked)
      throw new UsageError(
        `${args.options['endpoint-file'] !== undefined ? 'the endpoint in --endpoint-file' : '--endpoint'} ${endpointChecked.problem}`,
      );
    const endpointFlag = endpointChecked?.url;
    if (endpointChecked) sayCleaned(ctx, endpointChecked.removed);
    const folder = folderProblem(file, target);
    if (folder) {
      ctx.err(folder);
      return 1;
    }
    const prompter = interactive ? new Prompter(ctx.stdin, ctx.stdout) : undefined;
    try {
      if (fs.existsSync(target) && args.options.force !== true) {
        const replace = prompter ? await prompter.confirm(ctx.t('cli.init.replace', { file }), false) : false;
        if (replace === undefined) throw new NoAnswer();
        if (!replace) {
          ctx.err(ctx.t('cli.init.exists', { file }));
          return 1;
        }
      }
      let settings = defaultSettings();
      const endpoint = endpointFlag ?? (prompter ? await askEndpoint(prompter, ctx) : undefined);
      if (endpoint) settings = { ...settings, endpoints: [{ id: randomUUID(), name: 'xiaozhi', url: endpoint, enabled: true }] };

      const found = findClients(ctx, new ImportSessions(ctx.env));
      let chosen: Found[] = [];
      if (importFlag !== undefined) chosen = chooseByFlag(importFlag, found, ctx);
      else if (prompter && found.length > 0) chosen = await chooseByPrompt(prompter, found, ctx);
      else if (found.length > 0) ctx.out(ctx.t('cli.init.foundFlags', { count: found.length, apps: found.map((f) => f.label).join(', ') }));
      settings = await importChosen(
        chosen,
        settings,
        inputs,
        new Set(useEnvIds(args)),
        prompter,
        ctx,
        args.options['allow-code-env'] === true,
      );

      const store = new FileSettingsStore(target, settings, { onMadePrivate: (previous) => ctx.err(madePrivate(file, previous, ctx.t)) });
      store.save(settings);
      await store.settled();
      // Read back exactly as `run` will read it (without MCP_ENDPOINT, so the file is judged alone).
      const check = loadConfigFile(target, { ...ctx.env, MCP_ENDPOINT: '' });
      const s = check.settings;
      const shown = s.endpoints[0] ? ` (${redactUrl(s.endpoints[0].url)})` : '';
      ctx.out(`\n${ctx.t('cli.init.wrote', { file, endpoints: s.endpoints.length, shown, servers: s.servers.length })}`);
      if (s.endpoints.length === 0) ctx.out(ctx.t('cli.init.noEndpoint'));
      ctx.out(
        [
          '',
          ctx.t('cli.init.next'),
          `  xiaozhi-tray tools --config ${file}             ${ctx.t('cli.init.nextTools')}`,
          `  xiaozhi-tray run --config ${file}               ${ctx.t('cli.init.nextRun')}`,
          `  xiaozhi-tray service install --config ${file}   ${ctx.t('cli.init.nextService')}`,
        ].join('\n'),
      );
      return 0;
    } catch (error) {
      if (error instanceof CodeEnvRefused) {
        ctx.err(`\n${error.message}`);
        return 1;
      }
      if (error instanceof NoAnswer) {
        ctx.err(`\n${ctx.t('cli.init.noAnswer', { file })}`);
        return 1;
      }
      if (error instanceof ConfigError) {
        ctx.err(`${file} was written but does not load back: ${error.problems.map(formatProblem).join('; ')}`);
        return 1;
      }
      throw error;
    } finally {
      prompter?.close();
    }
  },
};
