import path from 'node:path';

import { orList, stringOption, UsageError } from '../../main/core/command-line/args';
import { maskSecret } from '../../main/core/logs/redact';
import { patienceSeconds } from '../../main/core/long-calls/patience';
import { secretValues } from '../../main/core/secrets/bridge-secrets';
import { countOf } from '../../shared/count-words';
import { isRecord } from '../../shared/is-record';
import { ALLOW_ENV_OPTION, allowEnvArg, type Command, CONFIG_OPTION, JSON_OPTION, logOptions } from '../command';
import { configFileOr, loadOrExplain } from '../config-file';
import { endpointOption, WAIT_OPTION, waitArg, withServers } from '../headless-bridge';
import { logChoice } from '../log-output';
import { type LoopbackSession, LoopbackXiaozhi } from '../loopback-xiaozhi';
import { closest } from '../suggest';

const STEP_TIMEOUT_MS = 30_000;

function parseArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw UsageError.of('cli.call.argsNotJson', { error: (error as Error).message });
  }
  if (!isRecord(value)) throw UsageError.of('cli.call.argsNotObject', { kind: Array.isArray(value) ? 'a list' : typeof value });
  return value;
}

/** Every page of `tools/list`, following `nextCursor` as the xiaozhi firmware does. */
async function listAll(session: LoopbackSession): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { message } = await session.request('tools/list', cursor === undefined ? {} : { cursor }, STEP_TIMEOUT_MS);
    if (message.error) throw new Error(`tools/list failed: ${message.error.message}`);
    pages++;
    const tools = Array.isArray(message.result?.tools) ? (message.result.tools as { name: string }[]) : [];
    names.push(...tools.map((t) => t.name));
    cursor = typeof message.result?.nextCursor === 'string' ? message.result.nextCursor : undefined;
  } while (cursor !== undefined && pages < 1000);
  return { names, pages };
}

export const callCommand: Command = {
  name: 'call',
  summary: 'cli.call.summary',
  usage: ['call --config FILE TOOL [--args JSON] [--json] [--endpoint NAME] [--wait SECONDS]'],
  options: [
    CONFIG_OPTION,
    ALLOW_ENV_OPTION,
    { name: 'args', value: 'JSON', help: 'cli.call.opt.args' },
    { ...JSON_OPTION, help: 'cli.call.opt.json' },
    {
      name: 'endpoint',
      value: 'NAME',
      help: 'cli.call.opt.endpoint',
    },
    WAIT_OPTION,
    ...logOptions('warn', 'stderr'),
  ],
  details: 'cli.call.details',
  async run(args, ctx) {
    const tool = args.positionals[0];
    const file = configFileOr(stringOption(args, 'config'), ctx);
    if (!tool) throw UsageError.of('cli.call.needsTool');
    const toolArgs = parseArguments(stringOption(args, 'args'));
    const waitMs = waitArg(args);
    const loaded = loadOrExplain(ctx, file, 'call', allowEnvArg(args));
    if (!loaded) return 1;
    const chosen = endpointOption(args, loaded.settings);
    // Only the secrets of this config are masked: the rest is printed exactly as xiaozhi gets it.
    const secrets = secretValues(loaded.settings);
    const clean = (text: string) => secrets.reduce((out, secret) => out.split(secret).join(maskSecret(secret)), text);
    const loopback = await LoopbackXiaozhi.start();
    // The stand-in is served what the chosen endpoint is: the same set, mode and pinned tools, so the same names.
    const endpoint = {
      id: 'cli-call',
      name: 'call',
      url: loopback.url,
      enabled: true,
      toolSet: chosen?.toolSet,
      // No endpoint named: every tool, so any tool can be called by its name.
      toolMode: chosen ? chosen.toolMode : 'all',
      pinned: chosen?.pinned,
      // A call past the chosen endpoint's patience is answered "still working…" here too, as xiaozhi would be.
      patience: chosen ? patienceSeconds(chosen) : undefined,
    };
    // A call that may go on in the background is bounded by the background limit, not the call timeout:
    // the answer comes by the endpoint's patience ("still working…") at the latest.
    const patienceMs = (endpoint.patience ?? patienceSeconds({ url: loopback.url })) * 1000;
    const callTimeout =
      Math.max(loaded.settings.limits.callTimeoutMs, patienceMs, ...loaded.settings.servers.map((s) => s.callTimeoutMs ?? 0)) + 5_000;
    try {
      return await withServers(
        ctx,
        loaded.settings,
        logChoice(args, 'warn'),
        async () => {
          const session = await loopback.connection(STEP_TIMEOUT_MS);
          const init = await session.request(
            'initialize',
            { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'xiaozhi-tray-call', version: ctx.version } },
            STEP_TIMEOUT_MS,
          );
          const serverInfo = init.message.result?.serverInfo as { name?: string; version?: string } | undefined;
          ctx.err(
            `1. initialize → ${serverInfo?.name ?? '?'} ${serverInfo?.version ?? ''} (protocol ${String(init.message.result?.protocolVersion ?? '?')})`,
          );
          session.notify('notifications/initialized');
          ctx.err('2. notifications/initialized');
          const listed = await listAll(session);
          ctx.err(`3. tools/list → ${countOf(listed.names.length, 'tool')} in ${countOf(listed.pages, 'page')}`);
          if (!listed.names.includes(tool)) {
            // A tool served with its server's prefix (two servers have it) is the likeliest meaning.
            const prefixed = listed.names.filter((n) => n.endsWith(`_${tool}`));
            const near = prefixed.length > 0 ? prefixed : [closest(tool, listed.names)].filter((n): n is string => n !== undefined);
            const list = `xiaozhi-tray tools --config ${file}${chosen ? ` --endpoint ${stringOption(args, 'endpoint') as string}` : ''}`;
            ctx.err(
              near.length
                ? ctx.t('cli.call.unknownToolNear', { tool, near: orList(near.map((n) => `"${n}"`)), list })
                : ctx.t('cli.call.unknownTool', { tool, list }),
            );
            return 1;
          }
          const started = performance.now();
          const { text, message } = await session.request('tools/call', { name: tool, arguments: toolArgs }, callTimeout);
          const ms = Math.round(performance.now() - started);
          ctx.err(
            `4. tools/call ${tool} → ${Buffer.byteLength(text)} bytes in ${ms} ms${message.result?.isError === true ? ', isError: true' : ''}`,
          );
          if (args.options.json === true) ctx.out(clean(text));
          else if (message.error) ctx.out(clean(`JSON-RPC error ${message.error.code}: ${message.error.message}`));
          else {
            const first = (message.result?.content as { type?: string; text?: string }[] | undefined)?.[0];
            ctx.out(clean(first?.type === 'text' && typeof first.text === 'string' ? first.text : ''));
          }
          return message.error || message.result?.isError === true ? 1 : 0;
        },
        [endpoint],
        // A relative path in the config (an OpenAPI document) is read beside it.
        file === undefined ? {} : { configDir: path.dirname(path.resolve(ctx.cwd, file)) },
        waitMs,
      );
    } finally {
      await loopback.close();
    }
  },
};
