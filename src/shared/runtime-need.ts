import type { MirrorUrls } from './mirrors';

/**
 * Which runtime a stdio server's command needs (Node.js for npx/npm/node, uv for uvx/uv), and the
 * exact command that installs it on each OS, for a user who runs the bridge headless. Pure: the
 * engine, the CLI and the window (the catalogue) all read it.
 */

export type RuntimeName = 'node' | 'uv';

/** The versions the app fetches: pinned (with their SHA-256s, runtime-pins.ts), so every machine runs what was tested. */
export const RUNTIME_VERSIONS: Record<RuntimeName, string> = { node: '22.12.0', uv: '0.12.0' };

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

/**
 * The command that installs `runtime` on `platform`: from the download sources chosen (in mainland
 * China, where GitHub and the installers' sites often cannot be reached, they are the mirrors'),
 * else as the runtime's own site gives it. uv from a PyPI index is its wheel, installed by pipx (pip
 * on Windows); Node.js from a mirror of nodejs.org/dist is the official archive or installer.
 */
export function installCommand(runtime: RuntimeName, platform: string, urls: MirrorUrls = {}, arch = 'x64'): string {
  const index = urls.uvIndex ?? urls.pypiIndex;
  if (runtime === 'uv' && index) return platform === 'win32' ? `pip install uv -i ${index}` : `pipx install uv --index-url ${index}`;
  if (runtime === 'node' && urls.nodeDist) {
    const version = RUNTIME_VERSIONS.node;
    const dir = `${urls.nodeDist.endsWith('/') ? urls.nodeDist : `${urls.nodeDist}/`}v${version}/`;
    if (platform === 'win32') return `msiexec /i ${dir}node-v${version}-${arch === 'arm64' ? 'arm64' : 'x64'}.msi`;
    if (platform === 'darwin') return `curl -fsSLO ${dir}node-v${version}.pkg && sudo installer -pkg node-v${version}.pkg -target /`;
    const cpu = "$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')";
    return `curl -fsSL ${dir}node-v${version}-linux-${cpu}.tar.xz | sudo tar -xJf - -C /usr/local --strip-components=1`;
  }
  if (runtime === 'uv')
    return platform === 'win32'
      ? 'powershell -ExecutionPolicy ByPass -c "irm https://astral.sh/uv/install.ps1 | iex"'
      : 'curl -LsSf https://astral.sh/uv/install.sh | sh';
  if (platform === 'win32') return 'winget install OpenJS.NodeJS.LTS';
  if (platform === 'darwin') return 'brew install node';
  return 'curl -o- https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.3/install.sh | bash && . "$HOME/.nvm/nvm.sh" && nvm install 22';
}

/**
 * The mirror `command`'s package runner downloads its packages from (npx: the npm registry; uvx: the
 * PyPI index), when one is chosen; undefined with the official sources or for another program.
 */
export function packageMirror(command: string, platform: string, urls: MirrorUrls): string | undefined {
  const need = runtimeNeed(command, platform);
  if (need === 'node') return urls.npmRegistry;
  return need === 'uv' ? urls.pypiIndex : undefined;
}
