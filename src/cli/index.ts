import path from 'node:path';
import { Bridge } from '../main/core/bridge';
import { ConfigError, formatProblem } from '../main/core/config/json-text';
import { loadConfigFile, type LoadedConfig } from '../main/core/config/load-config';
import { FileSettingsStore, MemorySettingsStore, type SettingsStore } from '../main/core/config/settings-store';
import { LogBook, streamSink } from '../main/core/logs/log-book';
import { startWebUi } from '../main/core/web/web-ui-server';
import { defaultCacheDir } from '../main/core/catalogue/catalogue-service';
import type { LogLevel } from '../shared/status';
import fs from 'node:fs';
import { defaultSettings, type ToolMode } from '../shared/settings';
import { describePreview } from '../main/core/import/import-preview';
import { ImportSessions } from '../main/core/import/import-sessions';
import { parseArgs } from './args';
import { commandWarnings } from '../main/core/config/command-warnings';
import { printCatalog } from './print-catalog';
import { CONNECT_HELP, connectCommand } from './connect-command';
import { LOCAL_SERVER_HELP, announceLocalServer, exportCommand, localServerOverrides, type LocalServerOverrides } from './local-server-flags';

const VERSION = '0.1.0';

const HELP = `xiaozhi-tray ${VERSION} — serve your MCP servers' tools to xiaozhi (小智)

Usage:
  xiaozhi-tray run --config FILE      run the bridge in the foreground (Ctrl+C stops it and every server)
      [--ui] [--port N] [--host ADDR]  also serve the window as a web page on 127.0.0.1 (token in the URL)
${LOCAL_SERVER_HELP}
${CONNECT_HELP}
  xiaozhi-tray check --config FILE    validate a config; prints each problem with where it is
  xiaozhi-tray tools --config FILE    start the servers and print the tools exactly as xiaozhi gets them
  xiaozhi-tray import FILE --config TARGET [--yes] [--input ID=VALUE]…
                                      preview importing FILE (Claude Desktop, Cursor, VS Code, Windsurf,
                                      Cline, Codex, xiaozhi-client…) into TARGET; writes only with --yes
  xiaozhi-tray export --config FILE [--format mcp-servers|xiaozhi-client]
                                      print the servers as a file other tools read
      [--format cursor|claude-desktop|vscode|cherry-studio]
                                      or the local MCP server as an entry of that client's config

FILE may be a Xiaozhi Tray config, xiaozhi-client's xiaozhi.config.json or an mcpServers file such as
the official example's mcp_config.json. MCP_ENDPOINT in the environment always adds an endpoint.

Options:
  --log-level debug|info|warn|error   what run prints (default info)
  --json                              tools: print JSON instead of a table
  --tool-mode all|router              run, tools: serve every endpoint all tools, or find_tools + call_tool
  --version, --help
`;

const out = (text: string) => process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);

function loadOrExplain(file: string | undefined): LoadedConfig | undefined {
  if (!file) {
    err('Missing --config FILE. Try: xiaozhi-tray run --config xiaozhi.config.json');
    return undefined;
  }
  try {
    return loadConfigFile(path.resolve(file));
  } catch (error) {
    if (error instanceof ConfigError) {
      err(`${error.file}: the config is not valid:`);
      for (const problem of error.problems) err(`  - ${formatProblem(problem)}`);
    } else err(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function storeFor(file: string, loaded: LoadedConfig): SettingsStore {
  if (loaded.format === 'xiaozhi-tray') return new FileSettingsStore(path.resolve(file), loaded.settings);
  // Never rewrite another program's file: changes made while running stay in memory.
  return new MemorySettingsStore(loaded.settings, { file: path.resolve(file), format: loaded.format });
}

interface UiOptions {
  enabled: boolean;
  port?: number;
  host?: string;
}

async function run(file: string, loaded: LoadedConfig, level: LogLevel, ui: UiOptions, toolMode?: ToolMode, localServer?: LocalServerOverrides): Promise<number> {
  const logBook = new LogBook({ sinks: [streamSink(process.stdout, level)] });
  const log = logBook.logger('app');
  for (const warning of loaded.warnings) log.warn(`${file}: ${formatProblem(warning)}`);
  if (loaded.settings.endpoints.length === 0) log.warn('no endpoint configured: set one in the file or in MCP_ENDPOINT');
  const bridge = new Bridge({ store: storeFor(file, loaded), logBook, version: VERSION, cacheDir: defaultCacheDir(), ...(toolMode ? { toolMode } : {}), ...(localServer ? { localServer } : {}) });
  let stopping = false;
  let closeUi: (() => Promise<void>) | undefined;
  const done = new Promise<number>((resolve) => {
    const shutdown = (signal: string) => {
      if (stopping) {
        log.warn(`${signal} again: exiting now`);
        process.exit(130);
      }
      stopping = true;
      log.info(`${signal}: stopping every server…`);
      Promise.all([bridge.stop(), closeUi?.()]).then(
        () => resolve(0),
        (error: unknown) => {
          log.error(`stop failed: ${String(error)}`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGHUP', () => shutdown('SIGHUP'));
  });
  log.info(`xiaozhi-tray ${VERSION}, config ${file} (${loaded.format})`);
  bridge.start();
  if (localServer?.enabled || loaded.settings.localServer.enabled) {
    await announceLocalServer(bridge, Boolean(localServer?.token ?? loaded.settings.localServer.token), (text) => process.stdout.write(text));
  }
  if (ui.enabled) {
    try {
      const web = await startWebUi({
        api: bridge.api,
        rendererDir: path.join(__dirname, '..', 'renderer'),
        log: logBook.logger('web'),
        ...(ui.host ? { host: ui.host } : {}),
        ...(ui.port !== undefined ? { port: ui.port } : {}),
      });
      closeUi = web.close;
      // Printed directly: the log book would (rightly) redact the access token.
      process.stdout.write(`\nOpen the window in a browser on this machine:\n  ${web.url}\n\n`);
      if (ui.host && !['127.0.0.1', 'localhost', '::1'].includes(ui.host)) log.warn(`the web UI listens on ${ui.host}: anyone who can reach it and has the URL can control the bridge`);
    } catch (error) {
      log.error(`web UI: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return done;
}

async function tools(file: string, loaded: LoadedConfig, json: boolean, toolMode: ToolMode = 'all'): Promise<number> {
  const logBook = new LogBook({ sinks: [streamSink(process.stderr, 'warn')] });
  // Listing needs no endpoint: serve nothing, only start the servers.
  const settings = { ...loaded.settings, endpoints: [] };
  const bridge = new Bridge({ store: new MemorySettingsStore(settings), logBook, version: VERSION });
  bridge.start();
  await bridge.whenServersSettled();
  const state = bridge.state();
  const served = bridge.endpointCatalogs.summaryFor({ toolMode, pinned: [] });
  out(printCatalog({ ...state, catalog: served }, bridge.endpointCatalogs.pagesFor({ toolMode, pinned: [] }), settings.limits.maxMessageBytes, json));
  if (toolMode === 'router' && !json) out(`router mode: find_tools searches ${served.searchable} tools`);
  await bridge.stop();
  return state.servers.some((s) => s.enabled && s.state !== 'running') ? 1 : 0;
}

/** Preview an import into a Xiaozhi Tray config; write it (atomically) only when told to. */
function importCommand(source: string | undefined, target: string | undefined, yes: boolean, inputs: Record<string, string>): number {
  if (!source || !target) {
    err('Usage: xiaozhi-tray import FILE --config TARGET [--yes]');
    return 2;
  }
  let current;
  const targetPath = path.resolve(target);
  if (fs.existsSync(targetPath)) {
    const loaded = loadOrExplain(target);
    if (!loaded) return 1;
    if (loaded.format !== 'xiaozhi-tray') {
      err(`${target} is a ${loaded.format} config; import writes only Xiaozhi Tray configs. Choose a new file for --config.`);
      return 1;
    }
    current = loaded.settings;
  } else current = defaultSettings();
  const sessions = new ImportSessions();
  let preview;
  try {
    preview = sessions.previewFile(path.resolve(source), current);
  } catch (error) {
    err(error instanceof Error ? error.message : String(error));
    return 1;
  }
  out(describePreview(preview));
  if (!yes) {
    out(`\nNothing was written. Run again with --yes to import into ${target}.`);
    return 0;
  }
  try {
    const applied = sessions.apply({ id: preview.id, inputs }, current);
    new FileSettingsStore(targetPath, current).save(applied.settings);
    const r = applied.result;
    out(`\nImported into ${target}: ${r.addedServers.length} server(s) added, ${r.replacedServers.length} replaced, ${r.addedEndpoints.length} endpoint(s), ${r.skipped} skipped.`);
    return 0;
  } catch (error) {
    err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

export async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, new Set(['config', 'log-level', 'port', 'host', 'input', 'format', 'tool-mode', 'mcp-port', 'mcp-token', 'url', 'token', 'client']));
  } catch (error) {
    err(String((error as Error).message));
    return 2;
  }
  if (args.options.version) {
    out(VERSION);
    return 0;
  }
  if (args.options.help || !args.command) {
    out(HELP);
    return args.command || args.options.help ? 0 : 2;
  }
  const file = typeof args.options.config === 'string' ? args.options.config : args.positionals[0];
  const toolMode = args.options['tool-mode'] as ToolMode | undefined;
  if (toolMode !== undefined && toolMode !== 'all' && toolMode !== 'router') {
    err(`--tool-mode must be all or router, not "${String(toolMode)}"`);
    return 2;
  }
  switch (args.command) {
    case 'check': {
      const loaded = loadOrExplain(file);
      if (!loaded) return 1;
      for (const warning of [...loaded.warnings, ...commandWarnings(loaded.settings)]) out(`warning: ${formatProblem(warning)}`);
      const s = loaded.settings;
      out(`${file}: valid ${loaded.format} config: ${s.endpoints.length} endpoint(s), ${s.servers.length} server(s)`);
      return 0;
    }
    case 'run': {
      const loaded = loadOrExplain(file);
      if (!loaded) return 1;
      const level = (typeof args.options['log-level'] === 'string' ? args.options['log-level'] : 'info') as LogLevel;
      if (!['debug', 'info', 'warn', 'error'].includes(level)) {
        err(`--log-level must be debug, info, warn or error, not "${level}"`);
        return 2;
      }
      const port = typeof args.options.port === 'string' ? Number(args.options.port) : undefined;
      if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
        err(`--port must be a port number, not "${String(args.options.port)}"`);
        return 2;
      }
      const host = typeof args.options.host === 'string' ? args.options.host : undefined;
      const local = localServerOverrides(args.options);
      if (!local.ok) {
        err(local.message);
        return 2;
      }
      return run(file as string, loaded, level, { enabled: args.options.ui === true || port !== undefined || host !== undefined, ...(port !== undefined ? { port } : {}), ...(host ? { host } : {}) }, toolMode, local.overrides);
    }
    case 'tools': {
      const loaded = loadOrExplain(file);
      if (!loaded) return 1;
      return tools(file as string, loaded, args.options.json === true, toolMode);
    }
    case 'import':
      return importCommand(args.positionals[0], typeof args.options.config === 'string' ? args.options.config : undefined, args.options.yes === true, args.inputs);
    case 'export': {
      const loaded = loadOrExplain(file);
      if (!loaded) return 1;
      return exportCommand(loaded.settings, args.options);
    }
    case 'connect':
      return connectCommand(args.options);
    default:
      err(`Unknown command "${args.command}".\n\n${HELP}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    err(`xiaozhi-tray: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
