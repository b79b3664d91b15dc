import path from 'node:path';
import type { OptionSpec, ParsedArgs } from './args';
import { defaultCacheDir } from '../main/core/catalogue/catalogue-service';
import { COMMON_OPTIONS } from './args';
import type { WatchdogCommand } from '../main/core/servers/server-watchdog';

/** What a command may use of the process it runs in; built once by the entry (index.ts). */
export interface CliContext {
  version: string;
  /** Writes a line to stdout. */
  out(text: string): void;
  /** Writes a line to stderr. */
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  platform: NodeJS.Platform;
  home: string;
  stdin: NodeJS.ReadableStream;
  /** `node` itself, and the script that starts this CLI (what a service runs). */
  execPath: string;
  entryScript: string;
  /** How a bridge starts the watchdog that stops its servers if it is killed (none: not built). */
  watchdog?: WatchdogCommand;
}

export interface Command {
  name: string;
  /** One line in the general help. */
  summary: string;
  /** The usage lines, without the program name. */
  usage: string[];
  /** Paragraphs after the options in the command's own help. */
  details?: string;
  options: OptionSpec[];
  run(args: ParsedArgs, ctx: CliContext): Promise<number>;
}

export const CONFIG_OPTION: OptionSpec = {
  name: 'config',
  value: 'FILE',
  help: 'the config to use (a Xiaozhi Tray config, xiaozhi.config.json or an mcpServers file; default: xiaozhi-tray.json in this folder, when it is there)',
};
export const ALLOW_ENV_OPTION: OptionSpec = {
  name: 'allow-env',
  value: 'NAME',
  repeatable: true,
  help: "let another app's config fill ${env:NAME} outside a stdio server's env (a URL, a header, an argument): NAME's value goes wherever that file says",
};
/** The `--allow-env` names given. */
export const allowEnvArg = (args: ParsedArgs): string[] => args.lists['allow-env'] ?? [];
export const JSON_OPTION: OptionSpec = { name: 'json', help: 'print JSON instead of text' };
export const FETCH_RUNTIMES_OPTION: OptionSpec = {
  name: 'fetch-runtimes',
  help: "fetch Node.js or uv into the app's cache folder for a server (npx, uvx…) whose runtime is not installed; without it, such a server fails saying how to install it",
};

/** Where `--fetch-runtimes` keeps the runtimes it fetches (the cache folder's runtimes/), or undefined without it. */
export function runtimesDirArg(args: ParsedArgs, ctx: CliContext): string | undefined {
  return args.options['fetch-runtimes'] === true ? path.join(defaultCacheDir(ctx.env, ctx.platform, ctx.home), 'runtimes') : undefined;
}

export const TOOL_MODE_OPTION: OptionSpec = {
  name: 'tool-mode',
  value: 'MODE',
  choices: ['all', 'router'],
  help: 'all (default: every endpoint is served every tool), or router: find_tools and call_tool stand in for them',
};
/**
 * A bearer token's two options: `--NAME-file FILE`, and `--NAME TOKEN` for scripts, which every user
 * of this computer sees in `ps` (its help says so and points at the file).
 */
export const tokenOptions = (name: string, fileHelp: string, orEnv?: string): OptionSpec[] => [
  { name: `${name}-file`, value: 'FILE', help: fileHelp },
  {
    name,
    value: 'TOKEN',
    help: `the same token on the command line, where every user of this computer sees it: prefer --${name}-file${orEnv ? ` or ${orEnv}` : ''}`,
  },
];
/** Run's local MCP server for Cursor, VS Code, Cherry Studio (`service install` passes them on). */
export const MCP_PORT_OPTION: OptionSpec = {
  name: 'mcp-port',
  value: 'N',
  help: 'also serve the tools as a local MCP server (streamable HTTP at 127.0.0.1:N/mcp) for Cursor, VS Code, Cherry Studio',
};
/** Run's window as a web page (`service install` passes them on). */
export const UI_OPTIONS: OptionSpec[] = [
  { name: 'ui', help: 'also serve the window as a web page on 127.0.0.1 (the printed URL carries an access token)' },
  { name: 'port', value: 'N', help: "the web page's port (implies --ui; default: any free port)" },
  { name: 'host', value: 'ADDR', help: 'listen on ADDR instead of 127.0.0.1, e.g. 0.0.0.0 for the LAN or in Docker (implies --ui)' },
];
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LOG_FORMATS = ['text', 'json'] as const;
export const logOptions = (defaultLevel: string, where: string): OptionSpec[] => [
  {
    name: 'log-level',
    value: 'LEVEL',
    choices: LOG_LEVELS,
    help: `the least important log lines shown on ${where}: debug, info, warn or error (default ${defaultLevel})`,
  },
  {
    name: 'log-format',
    value: 'FORMAT',
    choices: LOG_FORMATS,
    help: 'text (default), or json: one JSON object a line, for log collectors',
  },
];

export function commandHelp(command: Command, version: string): string {
  const options = [...command.options, ...COMMON_OPTIONS];
  const labels = options.map((o) => `--${o.name}${o.value ? ` ${o.value}` : ''}`);
  const width = Math.max(...labels.map((l) => l.length)) + 2;
  const lines = [
    `xiaozhi-tray ${version} — ${command.name}: ${command.summary}`,
    '',
    'Usage:',
    ...command.usage.map((u) => `  xiaozhi-tray ${u}`),
    '',
    'Options:',
    ...options.map((o, i) => `  ${(labels[i] as string).padEnd(width)}${o.help}${o.repeatable ? ' (repeatable)' : ''}`),
  ];
  if (command.details) lines.push('', command.details);
  return lines.join('\n');
}

/** The config file of a command: `--config FILE`, or the first positional. */
export function configArg(args: ParsedArgs): string | undefined {
  const option = args.options.config;
  return typeof option === 'string' ? option : args.positionals[0];
}
