import path from 'node:path';

import { stringOption } from '../../main/core/command-line/args';
import { UsageError } from '../../main/core/command-line/args';
import { commandWarnings } from '../../main/core/config/command-warnings';
import { formatProblem } from '../../main/core/config/json-text';
import { RunningCopies } from '../../main/core/instances/running-copies';
import { isLoopbackHost, isWildcardHost } from '../../main/core/io/http-gate';
import { appStateDir } from '../../main/core/local-server/state-file';
import { translate, translator } from '../../shared/i18n/translate';
import { type Problem, problem } from '../../shared/problem';
import { problemMessage } from '../../shared/problem-words';
import type { ToolMode } from '../../shared/settings';
import {
  ALLOW_ENV_OPTION,
  allowEnvArg,
  type Command,
  CONFIG_OPTION,
  configArg,
  FETCH_RUNTIMES_OPTION,
  logOptions,
  runtimesDirArg,
  runtimesFolder,
  TOOL_MODE_OPTION,
} from '../command';
import { configFileOr, configProblemText, loadOrExplain, readableByOthers, storeFor } from '../config-file';
import { startHeadless } from '../headless-bridge';
import { announceLocalServer, localServerOverrides } from '../local-server-flags';
import { jsonLogLine, logChoice } from '../log-output';
import { keepWebAddress, rememberedWebAddress, webAddressFile } from '../web-address';

export const runCommand: Command = {
  name: 'run',
  summary: 'cli.run.summary',
  usage: [
    'run --config FILE [--ui [--port N] [--host ADDR]] [--mcp-port N [--mcp-token-file FILE]] [--tool-mode auto|all|router] [--fetch-runtimes] [--log-level LEVEL] [--log-format text|json]',
  ],
  options: [
    CONFIG_OPTION,
    ALLOW_ENV_OPTION,
    { name: 'ui', help: 'cli.run.opt.ui' },
    { name: 'port', value: 'N', help: 'cli.run.opt.port' },
    { name: 'host', value: 'ADDR', help: 'cli.run.opt.host' },
    {
      name: 'mcp-port',
      value: 'N',
      help: 'cli.run.opt.mcp-port',
    },
    {
      name: 'mcp-token-file',
      value: 'FILE',
      help: 'cli.run.opt.mcp-token-file',
    },
    {
      name: 'mcp-token',
      value: 'T',
      help: 'cli.run.opt.mcp-token',
    },
    TOOL_MODE_OPTION,
    FETCH_RUNTIMES_OPTION,
    ...logOptions('info', 'stdout'),
  ],
  details: 'cli.run.details',
  async run(args, ctx) {
    const portText = stringOption(args, 'port');
    const port = portText === undefined ? undefined : Number(portText);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
      throw UsageError.of('cli.run.badPort', { value: portText ?? '' });
    const host = stringOption(args, 'host');
    const file = configFileOr(configArg(args), ctx);
    const loaded = loadOrExplain(ctx, file, 'run', allowEnvArg(args));
    if (!loaded || !file) return 1;
    const resolved = path.resolve(ctx.cwd, file);
    const { level, format } = logChoice(args, 'info');
    // Said once the log is there (a secret on the command line, a token file others can read).
    const secretWarnings: string[] = [];
    const local = localServerOverrides(args.options, { env: ctx.env, cwd: ctx.cwd, warn: (line) => secretWarnings.push(line) });
    if (!local.ok) throw local.error;
    const toolMode = stringOption(args, 'tool-mode') as ToolMode | undefined;
    const runtimesDir = runtimesDirArg(args, ctx);
    const webPage = args.options.ui === true || stringOption(args, 'port') !== undefined || stringOption(args, 'host') !== undefined;
    // With its web page, a run without --fetch-runtimes still downloads a runtime the person asks for there (Download uv).
    const runtimes = runtimesDir
      ? { runtimesDir }
      : webPage
        ? { runtimesDir: runtimesFolder(ctx), runtimesFetch: 'onRequest' as const }
        : {};
    let closeUi: (() => Promise<void>) | undefined;
    // What a save has to say goes to the log, once there is one (saves happen after the bridge starts).
    let say = (line: string, _said?: Problem): void => void ctx.stderr.write(`xiaozhi-tray: ${line}\n`);
    const { bridge, logBook, log, guard } = startHeadless(ctx, {
      store: storeFor(resolved, loaded, (line, said) => say(line, said)),
      log: { stream: ctx.stdout, level, format },
      alsoStop: () => closeUi?.(),
      bridge: {
        ...(toolMode ? { toolMode } : {}),
        ...(local.overrides ? { localServer: local.overrides } : {}),
        ...runtimes,
        configDir: path.dirname(resolved),
        // Where a PIN the app makes can be read: the web page when it is served, else the config file.
        pinShownIn: webPage ? 'webPage' : 'configFile',
        // Says which endpoints this run serves, where another copy (the desktop app, another run) looks.
        copies: new RunningCopies(appStateDir({ platform: ctx.platform, env: ctx.env }), { kind: 'headless', config: resolved }),
      },
    });
    if (level === 'debug') {
      // Headless, the log is the only place a call shows; the arguments and result stay in the history.
      const calls = logBook.logger('calls');
      bridge.on('call', (r) =>
        calls.debug(`${r.tool}${r.server ? ` (server "${r.server}")` : ''} from ${r.caller}: ${r.outcome} in ${r.durationMs} ms`),
      );
    }
    // A bridge with nothing to serve yet still runs (servers and endpoints can be added in the web UI).
    const keepAlive = setInterval(() => undefined, 2 ** 30);
    say = (line, said) => log.warn(line, said);
    try {
      // The JSON log keeps the English; the text log says where and what in the reader's language.
      for (const warning of loaded.warnings)
        log.warn(
          format === 'json'
            ? `${file}: ${formatProblem(warning)}`
            : ctx.t('cli.config.warningIn', { file, warning: configProblemText(ctx.t, warning) }),
        );
      for (const warning of secretWarnings) log.warn(warning);
      // Said before the servers start: which runtime is missing here, and the command that installs it.
      if (!runtimesDir)
        for (const warning of commandWarnings(loaded.settings, ctx.env, { runtimesOnly: true, pageDownloads: webPage }))
          log.warn(warning.message, warning.problem);
      const exposed = loaded.format === 'xiaozhi-tray' ? readableByOthers(file, resolved, loaded.settings) : undefined;
      if (exposed) log.warn(problemMessage(translator('en'), exposed, undefined)?.message ?? '', exposed);
      // Logged in English with its code (a JSON log stays English); the text log words it in the reader's language.
      if (loaded.settings.endpoints.length === 0) log.warn(translate('en', 'problem.cli.noEndpoint'), problem('cli.noEndpoint'));
      const started = problem('cli.started', { version: ctx.version, pid: process.pid, file, format: loaded.format });
      log.info(translate('en', 'problem.cli.started', started.params), started);
      bridge.start();
      if (local.overrides?.enabled || loaded.settings.localServer.enabled) {
        await announceLocalServer(bridge, {
          tokenKnown: Boolean(local.overrides?.token ?? loaded.settings.localServer.token),
          format,
          terminal: ctx.stdout.isTTY === true,
          config: file,
          t: ctx.t,
          write: (text) => ctx.stdout.write(text),
        });
      }
      if (args.options.ui === true || port !== undefined || host !== undefined) {
        try {
          const { startWebUi } = await import('../../main/core/web/web-ui-server');
          // The same address as last time (port and token), so a bookmark works; a port taken since, any free one.
          const addressFile = webAddressFile(appStateDir({ platform: ctx.platform, env: ctx.env }), resolved);
          const kept = rememberedWebAddress(addressFile, ctx.platform);
          const open = (listenPort: number | undefined) =>
            startWebUi({
              api: bridge.api,
              rendererDir: path.join(__dirname, '..', 'renderer'),
              log: logBook.logger('web'),
              token: kept.token,
              ...(host ? { host } : {}),
              ...(listenPort !== undefined ? { port: listenPort } : {}),
            });
          const web =
            port !== undefined || kept.port === undefined
              ? await open(port)
              : await open(kept.port).catch((error: unknown) => {
                  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
                  return open(undefined);
                });
          closeUi = web.close;
          const unkept = keepWebAddress(addressFile, { port: web.port, token: web.token });
          if (unkept) log.warn(`web UI: could not keep its address for the next start: ${unkept}`);
          // Written past the log book on purpose: it would (rightly) redact the access token.
          const message = 'open the window in a browser on this machine';
          if (format === 'json')
            ctx.stdout.write(`${jsonLogLine({ time: Date.now(), level: 'info', source: 'web', message }, { url: web.url })}\n`);
          else {
            // Listening on every interface (the LAN, Docker), the URL still names 127.0.0.1: say what to use elsewhere.
            const elsewhere = host && isWildcardHost(host) ? `${ctx.t('cli.run.elsewhere', { port: web.port })}\n` : '';
            ctx.stdout.write(`\n${ctx.t('cli.run.openWindowTitle')}\n  ${web.url}\n${elsewhere}\n`);
          }
          if (host && !isLoopbackHost(host))
            log.warn(translate('en', 'problem.cli.webExposed', { host }), problem('cli.webExposed', { host }));
        } catch (error) {
          // The window was asked for: running on without it (and without its address) leaves the user nothing to open.
          log.error(webUiFailure(error, port));
          guard.begin('the web UI could not start', 1);
        }
      }
      return await guard.stopped;
    } finally {
      clearInterval(keepAlive);
      guard.dispose();
    }
  },
};

/** Why the web UI could not listen, and what to do: a port in use is most often this app still running. */
function webUiFailure(error: unknown, port: number | undefined): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' && port !== undefined)
    return `web UI: port ${port} is already in use (is another xiaozhi-tray run still running?). Stop the other copy, or choose another port with --port (or leave --port out for a free one).`;
  if (code === 'EACCES' && port !== undefined)
    return `web UI: this user may not listen on port ${port}. Choose a port above 1024 with --port (or leave --port out for a free one).`;
  return `web UI: could not start: ${error instanceof Error ? error.message : String(error)}`;
}
