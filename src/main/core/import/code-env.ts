import type { ServerSettings } from '../../../shared/settings';

/**
 * Environment variables that make a program run other code before (or instead of) what its command
 * line says: a library preloaded into every process, an interpreter's start-up file or options, a
 * shell's start-up file, the package index `npx`/`uvx` install from. A server entry from elsewhere
 * can hide code there that the preview's command line does not show.
 */
const CODE_ENV = new Set([
  'NODE_OPTIONS',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONUSERBASE',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'UV_INDEX',
  'UV_INDEX_URL',
  'UV_DEFAULT_INDEX',
  'UV_EXTRA_INDEX_URL',
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
]);
const CODE_ENV_PREFIXES = ['DYLD_', 'NPM_CONFIG_'];

/** True for a variable that can run code before the server does (Windows names are case-blind, so all are compared upper case). */
export function runsCodeAtStart(name: string): boolean {
  const upper = name.toUpperCase();
  return CODE_ENV.has(upper) || CODE_ENV_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** The variables of a server's env that can run code before it does. */
export function codeEnvOf(server: ServerSettings): string[] {
  return server.transport === 'stdio' ? Object.keys(server.env).filter(runsCodeAtStart) : [];
}
