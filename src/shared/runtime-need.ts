/**
 * Which runtime a stdio server's command needs (Node.js for npx/npm/node, uv for uvx/uv), and the
 * exact command that installs it on each OS, for a user who runs the bridge headless. Pure: the
 * engine, the CLI and the window (the catalogue) all read it.
 */

export type RuntimeName = 'node' | 'uv';

/** The name a user knows each runtime by (the same in both languages). */
export const RUNTIME_LABEL: Record<RuntimeName, string> = { node: 'Node.js', uv: 'uv' };

const PROGRAMS: Record<string, RuntimeName> = { npx: 'node', npm: 'node', node: 'node', uvx: 'uv', uv: 'uv' };

/**
 * The runtime `command` is a program of, or undefined. A command with a folder in it is the user's
 * own choice of program: it needs nothing from us.
 */
export function runtimeNeed(command: string, platform: string): RuntimeName | undefined {
  const trimmed = command.trim();
  if (trimmed.includes('/') || (platform === 'win32' && trimmed.includes('\\'))) return undefined;
  const lower = trimmed.toLowerCase();
  const name = platform === 'win32' ? lower.replace(/\.(exe|cmd|bat)$/, '') : lower;
  return Object.hasOwn(PROGRAMS, name) ? PROGRAMS[name] : undefined;
}

/** The command that installs `runtime` on `platform`, as the runtime's own site gives it. */
export function installCommand(runtime: RuntimeName, platform: string): string {
  if (runtime === 'uv')
    return platform === 'win32'
      ? 'powershell -ExecutionPolicy ByPass -c "irm https://astral.sh/uv/install.ps1 | iex"'
      : 'curl -LsSf https://astral.sh/uv/install.sh | sh';
  if (platform === 'win32') return 'winget install OpenJS.NodeJS.LTS';
  if (platform === 'darwin') return 'brew install node';
  return 'curl -o- https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.3/install.sh | bash && . "$HOME/.nvm/nvm.sh" && nvm install 22';
}
