import type { Bridge } from '../main/core/bridge/bridge';
import { defaultConnectCommand, type EntryContext } from '../main/core/local-server/client-entries';
import type { LocalServerOverrides } from '../main/core/local-server/local-server-controller';

export type { LocalServerOverrides };
import { UsageError } from '../main/core/command-line/args';
import { secretOption } from '../main/core/command-line/secret-input';
import { hostWithPort, isWildcardHost } from '../main/core/io/http-gate';
import { appStateDir, readStateFile, rememberedToken } from '../main/core/local-server/state-file';
import type { Translate } from '../shared/i18n/translate';
import { SENDABLE_TOKEN, SENDABLE_TOKEN_RULE, type Settings } from '../shared/settings';
import { jsonLogLine, type LogFormat } from './log-output';

export type Flags = Record<string, string | true>;

/** Where a secret flag's file is found, what the environment holds, and where warnings go. */
export interface SecretContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  warn(line: string): void;
  /** The reader's language, for the warnings (default English). */
  t?: Translate;
}

/** The local server's token of this run: `--mcp-token-file FILE`, `--mcp-token T` (warned about) or XIAOZHI_TRAY_MCP_TOKEN. */
export const MCP_TOKEN_ENV = 'XIAOZHI_TRAY_MCP_TOKEN';

/**
 * `--mcp-port N` turns the local server on for this run; `--mcp-token-file FILE` (or
 * XIAOZHI_TRAY_MCP_TOKEN, or `--mcp-token T`, which every user sees in `ps`) fixes its token.
 */
export function localServerOverrides(
  options: Flags,
  secrets: SecretContext,
): { ok: true; overrides?: LocalServerOverrides } | { ok: false; error: UsageError } {
  const overrides: LocalServerOverrides = {};
  if (options['mcp-port'] !== undefined) {
    const port = Number(options['mcp-port']);
    if (!(Number.isInteger(port) && port >= 0 && port < 65536))
      return { ok: false, error: UsageError.of('cli.local.badPort', { value: String(options['mcp-port']) }) };
    overrides.enabled = true;
    overrides.port = port;
  }
  const token = secretOption(options, { flag: 'mcp-token', fileFlag: 'mcp-token-file', env: MCP_TOKEN_ENV }, secrets);
  if (token !== undefined) {
    const from =
      options['mcp-token-file'] !== undefined
        ? `the token in ${String(options['mcp-token-file'])}`
        : options['mcp-token'] !== undefined
          ? '--mcp-token'
          : MCP_TOKEN_ENV;
    if (token.length < 16) return { ok: false, error: UsageError.of('cli.local.shortToken', { from }) };
    if (!SENDABLE_TOKEN.test(token))
      return { ok: false, error: UsageError.of('cli.local.unsendableToken', { from, rule: SENDABLE_TOKEN_RULE }) };
    overrides.token = token;
  }
  return Object.keys(overrides).length > 0 ? { ok: true, overrides } : { ok: true };
}

export interface Announcement {
  /** The token comes from the config, a file or the environment (the user has it); else it was made for this run. */
  tokenKnown: boolean;
  format: LogFormat;
  /** stdout is a terminal: a person reads it, not a service manager's journal. */
  terminal: boolean;
  /** The config file, for the command that prints the token. */
  config: string;
  /** The reader's language, for the text form (the JSON line stays English). */
  t: Translate;
  write(text: string): void;
}

/**
 * Once the local server listens (or fails), says where, on stdout: in `--log-format json`, as one
 * log line. A token made up for this run is printed only to a terminal (under a service manager
 * the line would be kept in its journal); elsewhere the line says where to read it.
 */
export async function announceLocalServer(bridge: Bridge, how: Announcement): Promise<void> {
  const settled = () => ['listening', 'failed'].includes(bridge.state().localServer?.state ?? '');
  if (!settled()) {
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        off();
        resolve();
      };
      const timer = setTimeout(finish, 10_000);
      const off = bridge.on('status', () => settled() && finish());
    });
  }
  const status = bridge.state().localServer;
  if (status?.state !== 'listening' || !status.url) return;
  const shown = !how.tokenKnown && how.terminal ? await bridge.api.revealLocalServerToken() : undefined;
  const where = how.tokenKnown
    ? 'the token from the config, --mcp-token-file or XIAOZHI_TRAY_MCP_TOKEN'
    : `a token this app made (kept for later runs), not printed here: see it with: xiaozhi-tray export --config ${/\s/.test(how.config) ? `"${how.config}"` : how.config} --format cursor, or set one with --mcp-token-file, ${MCP_TOKEN_ENV} or localServer.token`;
  if (how.format === 'json') {
    const message = 'local MCP server for Cursor, VS Code, Cherry Studio (Claude Desktop: xiaozhi-tray connect)';
    how.write(
      `${jsonLogLine({ time: Date.now(), level: 'info', source: 'local-server', message }, { url: status.url, ...(shown ? { token: shown } : { tokenNote: where }) })}\n`,
    );
    return;
  }
  const said = how.tokenKnown
    ? how.t('cli.local.tokenKnown')
    : how.t('cli.local.tokenMade', { config: /\s/.test(how.config) ? `"${how.config}"` : how.config, env: MCP_TOKEN_ENV });
  how.write(`\n${how.t('cli.local.title')}\n  ${status.url}\n  Authorization: Bearer ${shown ?? `(${said})`}\n\n`);
}

/**
 * The local server's address and token for `export --format <client>`: the flags, then the config,
 * then the running app's state file (which knows a token generated for its run), then the token the
 * last run kept.
 */
export function exportEntryContext(settings: Settings, options: Flags, secrets: SecretContext): EntryContext {
  const stateDir = appStateDir();
  const running = readStateFile(stateDir);
  const flags = localServerOverrides(options, secrets);
  if (!flags.ok) throw flags.error;
  const overrides = flags.overrides ?? {};
  const port = overrides.port ?? settings.localServer.port;
  const host = isWildcardHost(settings.localServer.host) ? '127.0.0.1' : settings.localServer.host;
  const url = overrides.port === undefined && running.ok ? running.state.url : `http://${hostWithPort(host, port)}/mcp`;
  // Nothing running: the token the last run listened with, which the next run takes again.
  const token = overrides.token ?? settings.localServer.token ?? (running.ok ? running.state.token : rememberedToken(stateDir));
  if (!token)
    throw new Error(
      `No token for the local MCP server: set localServer.token in the config, pass --mcp-token-file FILE (or set ${MCP_TOKEN_ENV}), or start the app first.`,
    );
  return { url, appToken: token, connect: defaultConnectCommand() };
}
