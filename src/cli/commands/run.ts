import path from 'node:path';
import { formatProblem } from '../../main/core/config/json-text';
import { commandWarnings } from '../../main/core/config/command-warnings';
import { stringOption } from '../args';
import {
  ALLOW_ENV_OPTION,
  CONFIG_OPTION,
  FETCH_RUNTIMES_OPTION,
  MCP_PORT_OPTION,
  TOOL_MODE_OPTION,
  UI_OPTIONS,
  allowEnvArg,
  configArg,
  logOptions,
  runtimesDirArg,
  tokenOptions,
  type Command,
} from '../command';
import { announceLocalServer, localServerOverrides } from '../local-server-flags';
import type { ToolMode } from '../../shared/settings';
import { configFileOr, loadOrExplain, readableByOthers, storeFor } from '../config-file';
import { startHeadless } from '../headless-bridge';
import { jsonLogLine, logChoice } from '../log-output';
import { UsageError } from '../args';
import { isLoopbackHost, isWildcardHost } from '../../main/core/io/http-gate';

export const runCommand: Command = {
  name: 'run',
  summary: 'serve your tools to xiaozhi until stopped (Ctrl+C, or SIGTERM from a service manager)',
  usage: [
    'run --config FILE [--ui [--port N] [--host ADDR]] [--mcp-port N [--mcp-token-file FILE]] [--tool-mode all|router] [--fetch-runtimes] [--log-level LEVEL] [--log-format text|json]',
  ],
  options: [
    CONFIG_OPTION,
    ALLOW_ENV_OPTION,
    ...UI_OPTIONS,
    MCP_PORT_OPTION,
    ...tokenOptions(
      'mcp-token',
      "a file holding the bearer token of /mcp (default: XIAOZHI_TRAY_MCP_TOKEN, the config's, or the one the last run used: made once, then kept); each app's own is derived from it",
    ),
    TOOL_MODE_OPTION,
    FETCH_RUNTIMES_OPTION,
    ...logOptions('info', 'stdout'),
  ],
  details: [
    'Stopping: Ctrl+C (SIGINT) stops every server and exits 130 (Ctrl+\\, SIGQUIT: 131); SIGTERM (kill, systemd, docker stop) stops',
    'every server and exits 0. A second signal kills every server at once. Started by npx or npm, which do',
    'not pass SIGTERM on, the bridge stops when they go away. Under a service manager, run',
    '`node …/bin/xiaozhi-tray.js run …` rather than npx (see "xiaozhi-tray help service").',
    '',
    'MCP_ENDPOINT in the environment always adds an endpoint. A Xiaozhi Tray config is updated when you',
    "change settings in the web UI; another program's file is never rewritten.",
  ].join('\n'),
  async run(args, ctx) {
    const portText = stringOption(args, 'port');
    const port = portText === undefined ? undefined : Number(portText);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
      throw new UsageError(`--port must be a port number (0-65535), not "${portText}"`);
    const host = stringOption(args, 'host');
    const file = configFileOr(configArg(args), ctx);
    const loaded = loadOrExplain(ctx, file, 'run', allowEnvArg(args));
    if (!loaded || !file) return 1;
    const resolved = path.resolve(ctx.cwd, file);
    const { level, format } = logChoice(args, 'info');
    // Said once the log is there (a secret on the command line, a token file others can read).
    const secretWarnings: string[] = [];
    const local = localServerOverrides(args.options, { env: ctx.env, cwd: ctx.cwd, warn: (line) => secretWarnings.push(line) });
    if (!local.ok) throw new UsageError(local.message);
    const toolMode = stringOption(args, 'tool-mode') as ToolMode | undefined;
    const runtimesDir = runtimesDirArg(args, ctx);
    let closeUi: (() => Promise<void>) | undefined;
    // What a save has to say goes to the log, once there is one (saves happen after the bridge starts).
    let say = (line: string): void => void process.stderr.write(`xiaozhi-tray: ${line}\n`);
    const { bridge, logBook, log, guard } = startHeadless(ctx, {
      store: storeFor(resolved, loaded, (line) => say(line)),
      log: { stream: process.stdout, level, format },
      alsoStop: () => closeUi?.(),
      bridge: {
        ...(toolMode ? { toolMode } : {}),
        ...(local.overrides ? { localServer: local.overrides } : {}),
        ...(runtimesDir ? { runtimesDir } : {}),
        configDir: path.dirname(resolved),
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
    say = (line) => log.warn(line);
    try {
      for (const warning of loaded.warnings) log.warn(`${file}: ${formatProblem(warning)}`);
      for (const warning of secretWarnings) log.warn(warning);
      // Said before the servers start: which runtime is missing here, and the command that installs it.
      if (!runtimesDir) for (const warning of commandWarnings(loaded.settings, ctx.env, { runtimesOnly: true })) log.warn(warning.message);
      const exposed = loaded.format === 'xiaozhi-tray' ? readableByOthers(file, resolved, loaded.settings) : undefined;
      if (exposed) log.warn(exposed);
      if (loaded.settings.endpoints.length === 0)
        log.warn('no endpoint configured: add one in the web UI (--ui), in the file, or set MCP_ENDPOINT');
      log.info(`xiaozhi-tray ${ctx.version} (pid ${process.pid}), config ${file} (${loaded.format})`);
      bridge.start();
      if (local.overrides?.enabled || loaded.settings.localServer.enabled) {
        await announceLocalServer(bridge, {
          tokenKnown: Boolean(local.overrides?.token ?? loaded.settings.localServer.token),
          format,
          terminal: process.stdout.isTTY === true,
          config: file,
          write: (text) => process.stdout.write(text),
        });
      }
      if (args.options.ui === true || port !== undefined || host !== undefined) {
        try {
          const { startWebUi } = await import('../../main/core/web/web-ui-server');
          const web = await startWebUi({
            api: bridge.api,
            rendererDir: path.join(__dirname, '..', 'renderer'),
            log: logBook.logger('web'),
            ...(host ? { host } : {}),
            ...(port !== undefined ? { port } : {}),
          });
          closeUi = web.close;
          // Written past the log book on purpose: it would (rightly) redact the access token.
          const message = 'open the window in a browser on this machine';
          if (format === 'json')
            process.stdout.write(`${jsonLogLine({ time: Date.now(), level: 'info', source: 'web', message }, { url: web.url })}\n`);
          else {
            // Listening on every interface (the LAN, Docker), the URL still names 127.0.0.1: say what to use elsewhere.
            const elsewhere =
              host && isWildcardHost(host)
                ? `From another machine: the same address with this machine's name or IP instead of 127.0.0.1 (port ${web.port}).\n`
                : '';
            process.stdout.write(`\nOpen the window in a browser on this machine:\n  ${web.url}\n${elsewhere}\n`);
          }
          if (host && !isLoopbackHost(host))
            log.warn(`the web UI listens on ${host}: anyone who can reach it and has the URL can control the bridge`);
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
