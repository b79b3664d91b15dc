import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The first run of a server started by a package runner (`npx`, `uvx`, `pnpm dlx`…) downloads and
 * installs it before it can answer, which often takes longer than a start is given. Told from the
 * command, from what the runner prints on stderr while it installs, and from the package missing
 * from the runner's cache (`npx -y` prints nothing while it installs).
 */
export interface PackageRun {
  /** How the user would say it: `npx`, `uvx`, `pnpm dlx`… */
  runner: string;
  /** The package as given (`@scope/name@1.2`), when it is a plain registry name. */
  package?: string;
}

type Ecosystem = 'npm' | 'python' | 'other';

interface Runner {
  runner: string;
  ecosystem: Ecosystem;
  /** Where the arguments of the runner itself begin. */
  skip: number;
}

/** Options of the runners that take a value (the package comes after them). */
const VALUE_OPTIONS = new Set([
  '-p',
  '--package',
  '-c',
  '--call',
  '--registry',
  '--cache',
  '--userconfig',
  '--from',
  '--with',
  '--python',
  '--index',
  '--index-url',
  '--extra-index-url',
  '--with-requirements',
  '--with-editable',
  '--directory',
  '--spec',
]);

function runnerOf(command: string, args: readonly string[]): Runner | undefined {
  // Either separator: a config written on Windows names `C:\…\npx.cmd`.
  const base = (command.split(/[\\/]/).pop() ?? '').replace(/\.(cmd|exe|ps1|bat)$/i, '').toLowerCase();
  const [first, second] = args;
  if (base === 'npx' || base === 'pnpx') return { runner: base, ecosystem: 'npm', skip: 0 };
  if (base === 'bunx') return { runner: 'bunx', ecosystem: 'npm', skip: 0 };
  if (base === 'uvx') return { runner: 'uvx', ecosystem: 'python', skip: 0 };
  if (base === 'npm' && (first === 'exec' || first === 'x')) return { runner: `npm ${first}`, ecosystem: 'npm', skip: 1 };
  if ((base === 'pnpm' || base === 'yarn') && first === 'dlx') return { runner: `${base} dlx`, ecosystem: 'npm', skip: 1 };
  if (base === 'bun' && first === 'x') return { runner: 'bun x', ecosystem: 'npm', skip: 1 };
  if (base === 'uv' && first === 'tool' && second === 'run') return { runner: 'uv tool run', ecosystem: 'python', skip: 2 };
  if (base === 'uv' && first === 'run') return { runner: 'uv run', ecosystem: 'other', skip: 1 };
  if (base === 'pipx' && first === 'run') return { runner: 'pipx run', ecosystem: 'python', skip: 1 };
  return undefined;
}

/** The package a runner runs: the value of `--package`/`--from`, or its first argument that is not an option. */
function packageOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') return args[i + 1];
    const [name, value] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if ((name === '-p' || name === '--package' || name === '--from' || name === '--spec') && (value ?? args[i + 1]))
      return value ?? args[i + 1];
    if (arg.startsWith('-')) {
      if (value === undefined && VALUE_OPTIONS.has(name)) i++;
      continue;
    }
    return arg;
  }
  return undefined;
}

/** A registry name, optionally with a version or tag: never a URL or a path (which may hold a token). */
const REGISTRY_NAME = /^(?:@[\w.-]+\/)?[\w.-]+(?:(?:@|==|>=|~=)[\w.^~<>=*+-]+)?$/;

/** The runner and package of a server's command, or undefined when it is not started by a package runner. */
export function packageRun(command: string, args: readonly string[]): PackageRun | undefined {
  const runner = runnerOf(command, args);
  if (!runner) return undefined;
  const spec = runner.ecosystem === 'other' ? undefined : packageOf(args.slice(runner.skip));
  return { runner: runner.runner, ...(spec !== undefined && REGISTRY_NAME.test(spec) ? { package: spec } : {}) };
}

/** What npm, uv, pnpm, bun, yarn and pipx print on stderr while they download or install. */
const INSTALLING = [
  /^npm warn exec The following packages? (?:was|were) not found and will be installed/i,
  /^npm warn deprecated /i,
  /^\s*(?:Downloading|Downloaded|Resolved|Prepared|Installed|Building|Built|Installing|Updating) (?:\d+ packages?\b|cpython|[\w.-]+ (?:\(|==|@)|Python)/,
  /^Progress: resolved \d+/,
  /^Packages: \+\d+/,
  /^Resolving dependencies$/,
  /^Resolved, downloaded and extracted/,
  /^➤ YN\d+: ┌ (?:Resolution|Fetch|Link) step/,
  /^(?:creating virtual environment|installing [\w.-]+)\.\.\./i,
];

/** Whether a line a runner printed says it is downloading or installing. */
export function saysInstalling(line: string): boolean {
  return INSTALLING.some((pattern) => pattern.test(line));
}

/** How many cache folders are looked at, at most (the npx cache holds one per package set ever run). */
const MAX_CACHE_ENTRIES = 2000;

/**
 * Whether the package is surely not installed where its runner looks first, so this run downloads
 * it: not in the npx cache (`<npm cache>/_npx/<hash>/node_modules/<name>`) nor in the working
 * folder's node_modules, or (uv) no uv cache at all. False when unsure.
 */
export async function notYetInstalled(run: PackageRun, env: NodeJS.ProcessEnv, cwd: string | undefined): Promise<boolean> {
  const spec = run.package;
  if (spec === undefined) return false;
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (run.runner === 'npx' || run.runner === 'npm exec' || run.runner === 'npm x') {
    const name = spec.replace(/(?!^)@.*$/, '');
    if (await exists(path.join(cwd ?? process.cwd(), 'node_modules', name, 'package.json'))) return false;
    const cache =
      env.npm_config_cache ||
      env.NPM_CONFIG_CACHE ||
      (process.platform === 'win32' && env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'npm-cache') : path.join(home, '.npm'));
    const npx = path.join(cache, '_npx');
    let entries: string[];
    try {
      entries = (await fs.readdir(npx)).slice(0, MAX_CACHE_ENTRIES);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT';
    }
    for (const entry of entries) if (await exists(path.join(npx, entry, 'node_modules', name, 'package.json'))) return false;
    return true;
  }
  if (run.runner === 'uvx' || run.runner === 'uv tool run') {
    const cache =
      env.UV_CACHE_DIR ||
      (process.platform === 'win32' && env.LOCALAPPDATA
        ? path.join(env.LOCALAPPDATA, 'uv', 'cache')
        : path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'uv'));
    return !(await exists(cache));
  }
  return false;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
