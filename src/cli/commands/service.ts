import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { type ParsedArgs, stringOption, UsageError } from '../../main/core/command-line/args';
import { writeFileAtomic } from '../../main/core/system/atomic-write';
import {
  ALLOW_ENV_OPTION,
  allowEnvArg,
  type CliContext,
  type Command,
  FETCH_RUNTIMES_OPTION,
  LOG_FORMATS,
  LOG_LEVELS,
  TOOL_MODE_OPTION,
} from '../command';
import { loadOrExplain } from '../config-file';
import { localServerOverrides } from '../local-server-flags';
import { launchdPlist, type ServiceSpec, ServiceValueError, systemdUnit, windowsAdvice } from '../service/unit-files';
import { closest } from '../suggest';

const ACTIONS = ['install', 'uninstall', 'status'] as const;

type Action = (typeof ACTIONS)[number];

/** Where a service manager keeps a user's service, and how to drive it. */
interface Manager {
  file: string;
  write(spec: ServiceSpec): string;
  /** Commands that load and start it (after writing), unload it (before removing), and ask its state. */
  start: string[][];
  stop: string[][];
  state: string[];
  /** Where its output goes, and anything else worth knowing afterwards. */
  notes: string[];
}

function managerFor(ctx: CliContext, name: string): Manager | undefined {
  if (ctx.platform === 'linux') {
    const unit = `${name}.service`;
    const linger = ctx.env.USER ? fs.existsSync(`/var/lib/systemd/linger/${ctx.env.USER}`) : false;
    return {
      file: path.join(ctx.env.XDG_CONFIG_HOME || path.join(ctx.home, '.config'), 'systemd', 'user', unit),
      write: systemdUnit,
      start: [
        ['systemctl', '--user', 'daemon-reload'],
        ['systemctl', '--user', 'enable', unit],
        ['systemctl', '--user', 'restart', unit],
      ],
      stop: [['systemctl', '--user', 'disable', '--now', unit]],
      state: ['systemctl', '--user', 'is-active', unit],
      notes: [ctx.t('cli.service.logs', { command: `journalctl --user -u ${name} -f` }), ...(linger ? [] : [ctx.t('cli.service.linger')])],
    };
  }
  if (ctx.platform === 'darwin') {
    const label = `me.xiaozhi.tray.${name}`;
    const domain = `gui/${process.getuid?.() ?? 501}`;
    const log = path.join(ctx.home, 'Library', 'Logs', 'xiaozhi-tray', `${name}.log`);
    const file = path.join(ctx.home, 'Library', 'LaunchAgents', `${label}.plist`);
    return {
      file,
      write: (spec) => {
        const text = launchdPlist(spec, label, log);
        fs.mkdirSync(path.dirname(log), { recursive: true });
        return text;
      },
      start: [
        ['launchctl', 'bootout', `${domain}/${label}`],
        ['launchctl', 'bootstrap', domain, file],
      ],
      stop: [['launchctl', 'bootout', `${domain}/${label}`]],
      state: ['launchctl', 'print', `${domain}/${label}`],
      notes: [ctx.t('cli.service.logs', { command: `tail -f "${log}"` })],
    };
  }
  return undefined;
}

/** Runs a service manager command; its failure is reported, never thrown. `missing`: the program is not there. */
function runTool(command: string[]): { ok: boolean; output: string; missing?: boolean } {
  const [program, ...rest] = command as [string, ...string[]];
  const result = spawnSync(program, rest, { encoding: 'utf8', timeout: 30_000 });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    return { ok: false, output: missing ? `${program} is not available here` : result.error.message, ...(missing ? { missing } : {}) };
  }
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

/** systemctl --user from a shell without a user session (su, sudo, some ssh setups, containers). */
const NO_USER_MANAGER =
  /Failed to connect to (the )?bus|DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR|No medium found|Failed to connect to user scope bus/i;

/** The tool's failure in plain words. */
function explain(output: string): string {
  if (NO_USER_MANAGER.test(output)) {
    return "systemd's user manager is not reachable from this shell (log in as this user, or set XDG_RUNTIME_DIR=/run/user/$(id -u))";
  }
  return output || 'it failed';
}

/**
 * The PATH of the shell the user installs from. Through npx or npm it starts with npm's additions:
 * node_modules/.bin of this folder and of every folder above it (/tmp/node_modules/.bin too, which
 * anyone may create), npx's cache and npm's node-gyp shim. They are npm's, not the shell's: a
 * service must not look its servers' commands up there.
 */
export function shellPath(env: NodeJS.ProcessEnv): string {
  const value = env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  if (!env.npm_execpath && !env.npm_command && !env.npm_lifecycle_event) return value;
  const npmAdded = (dir: string) => /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir) || /[\\/]node-gyp-bin[\\/]?$/.test(dir);
  const kept = value.split(path.delimiter).filter((dir) => !npmAdded(dir));
  return kept.some((dir) => dir !== '') ? kept.join(path.delimiter) : value;
}

/** `run --config FILE` plus the run options given to `service install` (a token file by its full path: the service starts elsewhere). */
function runArgs(args: ParsedArgs, config: string, cwd: string): string[] {
  const out = ['run', '--config', config];
  for (const name of ['log-level', 'log-format', 'port', 'host', 'mcp-port', 'mcp-token-file', 'tool-mode']) {
    const value = stringOption(args, name);
    if (value !== undefined) out.push(`--${name}`, name === 'mcp-token-file' ? path.resolve(cwd, value) : value);
  }
  for (const name of ['ui', 'fetch-runtimes'] as const) if (args.options[name] === true) out.push(`--${name}`);
  for (const name of allowEnvArg(args)) out.push('--allow-env', name);
  return out;
}

async function install(args: ParsedArgs, ctx: CliContext, name: string, manager: Manager | undefined): Promise<number> {
  const config = stringOption(args, 'config');
  if (!config) throw UsageError.of('cli.service.needsConfig');
  if (args.options['mcp-token'] !== undefined) throw UsageError.of('cli.service.noInlineToken');
  // Checked now, as run will check them (a port, a readable token file of 16 characters or more).
  const local = localServerOverrides(args.options, {
    env: {},
    cwd: ctx.cwd,
    t: ctx.t,
    warn: (line) => ctx.err(ctx.t('cli.check.warning', { warning: line })),
  });
  if (!local.ok) throw local.error;
  const loaded = loadOrExplain(ctx, config, 'service install', allowEnvArg(args));
  if (!loaded) return 1;
  const resolved = path.resolve(ctx.cwd, config);
  const spec: ServiceSpec = {
    name,
    execPath: ctx.execPath,
    script: ctx.entryScript,
    args: runArgs(args, resolved, ctx.cwd),
    workingDirectory: path.dirname(resolved),
    path: shellPath(ctx.env),
  };
  if (!manager) {
    ctx.out(windowsAdvice(spec));
    return 1;
  }
  if (ctx.env.MCP_ENDPOINT && !loaded.settings.endpoints.some((e) => e.url === ctx.env.MCP_ENDPOINT)) {
    ctx.err(ctx.t('cli.service.envEndpoint'));
  }
  if (/[\\/]_npx[\\/]/.test(spec.script)) {
    ctx.err(ctx.t('cli.service.fromNpx', { script: spec.script }));
  }
  const existed = fs.existsSync(manager.file);
  let text: string;
  try {
    text = manager.write(spec);
  } catch (error) {
    if (!(error instanceof ServiceValueError)) throw error;
    ctx.err(`service install: ${error.message}`);
    return 1;
  }
  await writeFileAtomic(manager.file, text);
  const commands = (list: string[][]) => list.map((c) => `  ${c.join(' ')}`).join('\n');
  ctx.out(ctx.t(existed ? 'cli.service.updated' : 'cli.service.wrote', { file: manager.file }));
  ctx.out(ctx.t('cli.service.itRuns', { command: [spec.execPath, spec.script, ...spec.args].join(' ') }));
  if (args.options['no-start'] === true) {
    ctx.out(`${ctx.t('cli.service.notStarted')}\n${commands(manager.start)}`);
    return 0;
  }
  for (const [index, command] of manager.start.entries()) {
    const result = runTool(command);
    // Unloading an agent that is not loaded yet is expected to fail.
    if (!result.ok && !(ctx.platform === 'darwin' && index === 0)) {
      ctx.err(ctx.t('cli.service.startFailed', { command: command.join(' '), output: result.output || 'failed' }));
      ctx.err(`${ctx.t('cli.service.startLater')}\n${commands(manager.start)}`);
      return 1;
    }
  }
  ctx.out(`${ctx.t('cli.service.started')}\n${manager.notes.join('\n')}`);
  return 0;
}

function uninstall(ctx: CliContext, manager: Manager): number {
  if (!fs.existsSync(manager.file)) {
    ctx.out(ctx.t('cli.service.notInstalled', { file: manager.file }));
    return 0;
  }
  let stopped = true;
  for (const command of manager.stop) {
    const result = runTool(command);
    // Without the program, no service of it can be running: removing the file is all there is to do.
    if (result.ok || result.missing) continue;
    // launchd: an agent that is not loaded has nothing to stop.
    if (ctx.platform === 'darwin' && /No such process|Could not find service/i.test(result.output)) continue;
    stopped = false;
    ctx.err(ctx.t('cli.service.stopFailed', { command: command.join(' '), output: explain(result.output) }));
  }
  fs.rmSync(manager.file, { force: true });
  if (ctx.platform === 'linux') runTool(['systemctl', '--user', 'daemon-reload']);
  if (!stopped) {
    ctx.err(`${ctx.t('cli.service.removedRunning', { file: manager.file })}\n${manager.stop.map((c) => `  ${c.join(' ')}`).join('\n')}`);
    return 1;
  }
  ctx.out(ctx.t('cli.service.removed', { file: manager.file }));
  return 0;
}

function status(ctx: CliContext, manager: Manager): number {
  if (!fs.existsSync(manager.file)) {
    ctx.out(`${ctx.t('cli.service.notInstalled', { file: manager.file })} ${ctx.t('cli.service.installWith')}`);
    return 1;
  }
  const text = fs.readFileSync(manager.file, 'utf8');
  const runs =
    ctx.platform === 'linux'
      ? /^ExecStart=(.*)$/m.exec(text)?.[1]
      : [...text.matchAll(/^ {4}<string>(.*)<\/string>$/gm)].map((m) => m[1]).join(' ');
  ctx.out(ctx.t('cli.service.installed', { file: manager.file }));
  ctx.out(ctx.t('cli.service.runs', { command: runs ?? '?' }));
  const result = runTool(manager.state);
  if (result.missing || NO_USER_MANAGER.test(result.output)) {
    ctx.out(ctx.t('cli.service.stateUnknown', { output: result.missing ? result.output : explain(result.output) }));
    return 1;
  }
  // is-active answers one word (active, inactive, failed…) and exits non-zero for all but active.
  const state =
    ctx.platform === 'darwin'
      ? (/^\s*state = (.*)$/m.exec(result.output)?.[1] ?? (result.ok ? 'loaded' : 'not loaded'))
      : /^[a-z-]+$/.test(result.output)
        ? result.output
        : `unknown (${explain(result.output)})`;
  ctx.out(ctx.t('cli.service.state', { state }));
  ctx.out(manager.notes[0] ?? '');
  return 0;
}

export const serviceCommand: Command = {
  name: 'service',
  summary: 'cli.service.summary',
  usage: [
    'service install --config FILE [--name NAME] [--no-start] [--log-level LEVEL] [--log-format text|json] [--ui --port N --host ADDR] [--mcp-port N --mcp-token-file FILE] [--tool-mode auto|all|router] [--fetch-runtimes]',
    'service uninstall [--name NAME]',
    'service status [--name NAME]',
  ],
  options: [
    { name: 'config', value: 'FILE', help: 'cli.service.opt.config' },
    { name: 'name', value: 'NAME', help: 'cli.service.opt.name' },
    { name: 'no-start', help: 'cli.service.opt.no-start' },
    { name: 'log-level', value: 'LEVEL', choices: LOG_LEVELS, help: 'cli.service.opt.log-level' },
    { name: 'log-format', value: 'FORMAT', choices: LOG_FORMATS, help: 'cli.service.opt.log-format' },
    { name: 'ui', help: 'cli.service.opt.ui' },
    { name: 'port', value: 'N', help: 'cli.service.opt.port' },
    { name: 'host', value: 'ADDR', help: 'cli.service.opt.host' },
    { ...ALLOW_ENV_OPTION, help: 'cli.service.opt.allow-env' },
    { name: 'mcp-port', value: 'N', help: 'cli.service.opt.mcp-port' },
    { name: 'mcp-token-file', value: 'FILE', help: 'cli.service.opt.mcp-token-file' },
    { name: 'mcp-token', value: 'T', help: 'cli.service.opt.mcp-token' },
    { ...TOOL_MODE_OPTION, help: 'cli.service.opt.tool-mode' },
    { ...FETCH_RUNTIMES_OPTION, help: 'cli.service.opt.fetch-runtimes' },
  ],
  details: 'cli.service.details',
  async run(args, ctx) {
    const action = args.positionals[0];
    if (!action || !(ACTIONS as readonly string[]).includes(action)) {
      const near = action ? closest(action, ACTIONS) : undefined;
      if (!action) throw UsageError.of('cli.service.needsAction');
      throw near ? UsageError.of('cli.service.badActionNear', { action, near }) : UsageError.of('cli.service.badAction', { action });
    }
    const name = stringOption(args, 'name') ?? 'xiaozhi-tray';
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) throw UsageError.of('cli.service.badName');
    const manager = managerFor(ctx, name);
    switch (action as Action) {
      case 'install':
        return install(args, ctx, name, manager);
      case 'uninstall':
      case 'status':
        if (!manager) {
          ctx.out(
            windowsAdvice({
              name,
              execPath: ctx.execPath,
              script: ctx.entryScript,
              args: ['run', '--config', 'FILE'],
              workingDirectory: ctx.cwd,
              path: '',
            }),
          );
          return 1;
        }
        return action === 'status' ? status(ctx, manager) : uninstall(ctx, manager);
    }
  },
};
