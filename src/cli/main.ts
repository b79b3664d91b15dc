import { parseArgs, UsageError } from './args';
import { commandHelp, type CliContext, type Command } from './command';
import { callCommand } from './commands/call';
import { checkCommand } from './commands/check';
import { connectCommand } from './commands/connect';
import { exportCommand } from './commands/export';
import { importCommand } from './commands/import';
import { initCommand } from './commands/init';
import { runCommand } from './commands/run';
import { serversCommand } from './commands/servers';
import { serviceCommand } from './commands/service';
import { statsCommand } from './commands/stats';
import { toolsCommand } from './commands/tools';
import { closest } from './suggest';

const GROUPS: [string, Command[]][] = [
  ['Start here', [initCommand, runCommand]],
  ['Look before you serve', [checkCommand, toolsCommand, serversCommand, callCommand]],
  ['See what xiaozhi did', [statsCommand]],
  ['Move configs between apps', [importCommand, exportCommand]],
  ['Serve other AI clients', [connectCommand]],
  ['Keep it running', [serviceCommand]],
];
const COMMANDS = new Map(GROUPS.flatMap(([, commands]) => commands.map((c) => [c.name, c] as const)));

export function generalHelp(version: string): string {
  const lines = [`xiaozhi-tray ${version} — serve your MCP servers' tools to xiaozhi (小智)`, '', 'Usage: xiaozhi-tray COMMAND [options]'];
  for (const [title, commands] of GROUPS) {
    lines.push('', `${title}:`);
    for (const command of commands) lines.push(`  ${command.name.padEnd(9)}${command.summary}`);
  }
  lines.push(
    '',
    "xiaozhi-tray help COMMAND (or COMMAND --help, -h) shows a command's options; --version (-v) prints the version.",
    '',
    "FILE may be a Xiaozhi Tray config ({} is an empty one), xiaozhi-client's xiaozhi.config.json, or an",
    "mcpServers file such as the official example's mcp_config.json. MCP_ENDPOINT in the environment always",
    'adds an endpoint.',
  );
  return lines.join('\n');
}

function unknownCommand(name: string): UsageError {
  const near = closest(name, [...COMMANDS.keys(), 'help']);
  return new UsageError(`Unknown command "${name}".${near ? ` Did you mean "${near}"?` : ''} Run "xiaozhi-tray help" for the list.`);
}

/** Runs one command line; resolves with the exit code (2: wrong usage). */
export async function main(argv: string[], ctx: CliContext): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === undefined || first === '--help' || first === '-h') {
      (first ? ctx.out : ctx.err)(generalHelp(ctx.version));
      return first ? 0 : 2;
    }
    if (first === '--version' || first === '-v') {
      ctx.out(ctx.version);
      return 0;
    }
    if (first === 'help') {
      const about = rest[0];
      if (about === undefined) ctx.out(generalHelp(ctx.version));
      else {
        const command = COMMANDS.get(about);
        if (!command) throw unknownCommand(about);
        ctx.out(commandHelp(command, ctx.version));
      }
      return 0;
    }
    if (first.startsWith('-'))
      throw new UsageError(`${first} comes after a command: xiaozhi-tray COMMAND [options]. Run "xiaozhi-tray help".`);
    const command = COMMANDS.get(first);
    if (!command) throw unknownCommand(first);
    const args = parseArgs(rest, command.options, command.name);
    if (args.options.help === true) {
      ctx.out(commandHelp(command, ctx.version));
      return 0;
    }
    if (args.options.version === true) {
      ctx.out(ctx.version);
      return 0;
    }
    return await command.run(args, ctx);
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.err(`xiaozhi-tray: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
