import path from 'node:path';

import { stringOption, UsageError } from '../../main/core/command-line/args';
import { maskSecret } from '../../main/core/logs/redact';
import { modelEnglish } from '../../main/core/models/model-problems';
import { secretValues } from '../../main/core/secrets/bridge-secrets';
import type { BridgeApi } from '../../shared/bridge-api';
import type { SentenceCheck, SentenceTry } from '../../shared/model-api';
import { modelReady } from '../../shared/model-settings';
import type { Problem } from '../../shared/problem';
import { failureText } from '../cli-words';
import { ALLOW_ENV_OPTION, allowEnvArg, type CliContext, type Command, CONFIG_OPTION, JSON_OPTION, logOptions } from '../command';
import { configFileOr, loadOrExplain } from '../config-file';
import { endpointOption, WAIT_OPTION, waitArg, withServers } from '../headless-bridge';
import { logChoice } from '../log-output';

/** A model's failure for the reader: its words in the CLI's language, with what to do. */
const problemText = (ctx: CliContext, problem: Problem) => failureText(ctx, problem, modelEnglish(problem));

/** One tried sentence, line by line: what the model was given, searched, picked, and what running it came to. */
function printTry(ctx: CliContext, tried: SentenceTry, model: string): void {
  const { t } = ctx;
  const mode = t(tried.mode === 'router' ? 'try.mode.router' : 'try.mode.all');
  ctx.err(t('cli.ask.given', { count: tried.functions, bytes: tried.bytes, mode, endpoint: tried.endpoint ? ` (${tried.endpoint})` : '' }));
  for (const find of tried.finds) ctx.out(t('cli.ask.find', { query: find.query, names: find.found.join(', ') || '-' }));
  const pick = tried.pick;
  if (pick) {
    ctx.out(
      t('cli.ask.picks', {
        name: pick.name,
        via: pick.via === 'call_tool' ? ' (call_tool)' : '',
        server: pick.server !== undefined ? ` [${pick.server}]` : '',
      }),
    );
    ctx.out(t('cli.ask.arguments', { json: pick.argumentsText ?? JSON.stringify(pick.arguments ?? {}) }));
    if (pick.check === 'ok') ctx.out(t('cli.ask.checkOk'));
    else if (pick.check === 'refused') ctx.out(t('cli.ask.checkRefused', { text: pick.checkText ?? '' }));
    else ctx.out(t('cli.ask.unknown'));
  } else if (tried.answer !== undefined) ctx.out(t('cli.ask.noPick', { text: tried.answer }));
  else if (!tried.problem) ctx.out(t('cli.ask.searching'));
  if (tried.run) {
    if (tried.run.held) ctx.out(t('cli.ask.held', { via: tried.run.held }));
    else ctx.out(t('cli.ask.result', { error: tried.run.isError ? ' (isError)' : '', text: tried.run.text }));
  }
  if (tried.said) ctx.out(t('cli.ask.said', { text: tried.said }));
  if (tried.problem) ctx.err(`xiaozhi-tray: ${problemText(ctx, tried.problem)}`);
  ctx.err(t('cli.ask.requests', { count: tried.requests, model }));
}

/** A check of every sample sentence: per tool, how often the right tool was picked, and each sentence that failed. */
function printCheck(ctx: CliContext, check: SentenceCheck): void {
  const { t } = ctx;
  if (check.problem) {
    ctx.err(`xiaozhi-tray: ${problemText(ctx, check.problem)}`);
    return;
  }
  for (const tool of check.tools) {
    ctx.out(
      t('cli.ask.checkLine', {
        name: tool.name ?? `${tool.server}/${tool.tool} (${t('try.sets.notServed')})`,
        passed: tool.passed,
        total: tool.total,
      }),
    );
    for (const failure of tool.failures) {
      const what =
        failure.reason === 'other'
          ? t('try.sets.fail.other', { name: failure.picked ?? '?' })
          : failure.reason === 'error' && failure.problem
            ? `→ ${problemText(ctx, failure.problem)}`
            : t(`try.sets.fail.${failure.reason}`);
      ctx.out(t('cli.ask.checkFailure', { sentence: failure.sentence, what }));
    }
  }
}

export const askCommand: Command = {
  name: 'ask',
  summary: 'cli.ask.summary',
  usage: ['ask --config FILE "SENTENCE" [--run] [--endpoint NAME] [--json]', 'ask --config FILE --check [--endpoint NAME] [--json]'],
  options: [
    CONFIG_OPTION,
    ALLOW_ENV_OPTION,
    { name: 'run', help: 'cli.ask.opt.run' },
    { name: 'check', help: 'cli.ask.opt.check' },
    { name: 'endpoint', value: 'NAME', help: 'cli.ask.opt.endpoint' },
    JSON_OPTION,
    WAIT_OPTION,
    ...logOptions('warn', 'stderr'),
  ],
  details: 'cli.ask.details',
  async run(args, ctx) {
    const sentence = args.positionals.join(' ').trim();
    const check = args.options.check === true;
    if (!check && sentence === '') throw UsageError.of('cli.ask.needsSentence');
    const file = configFileOr(stringOption(args, 'config'), ctx);
    const waitMs = waitArg(args);
    const loaded = loadOrExplain(ctx, file, 'ask', allowEnvArg(args));
    if (!loaded) return 1;
    const chosen = endpointOption(args, loaded.settings);
    if (!modelReady(loaded.settings.model)) {
      ctx.err(`xiaozhi-tray: ${ctx.t('cli.ask.noModel')}`);
      return 1;
    }
    if (check && Object.keys(loaded.settings.sentences).length === 0) {
      ctx.err(`xiaozhi-tray: ${ctx.t('cli.ask.checkNone')}`);
      return 1;
    }
    // The config's secrets (the model's key among them) never reach the terminal.
    const secrets = secretValues(loaded.settings);
    const clean = (text: string) => secrets.reduce((out, secret) => out.split(secret).join(maskSecret(secret)), text);
    const said: CliContext = { ...ctx, out: (text) => ctx.out(clean(text)), err: (text) => ctx.err(clean(text)) };
    // The chosen endpoint's set, mode and pinned tools, without connecting it: nothing is served to xiaozhi.
    const endpoints = chosen ? [{ ...chosen, enabled: false }] : [];
    return withServers(
      said,
      loaded.settings,
      logChoice(args, 'warn'),
      async ({ bridge }) => {
        const api: BridgeApi = bridge.api;
        const endpoint = chosen ? { endpoint: chosen.id } : {};
        const model = bridge.modelRoom.client()?.model ?? '?';
        if (check) {
          const result = await api.checkSentences(endpoint);
          if (args.options.json === true) said.out(JSON.stringify(result, null, 2));
          else printCheck(said, result);
          const failed = result.problem !== undefined || result.tools.some((tool) => tool.passed < tool.total);
          return failed ? 1 : 0;
        }
        const tried = await api.trySentence({ sentence, run: args.options.run === true, ...endpoint });
        if (args.options.json === true) said.out(JSON.stringify(tried, null, 2));
        else printTry(said, tried, model);
        return tried.problem ? 1 : 0;
      },
      endpoints,
      file === undefined ? {} : { configDir: path.dirname(path.resolve(ctx.cwd, file)) },
      waitMs,
    );
  },
};
