import path from 'node:path';

/**
 * The environment of a CLI under test: this one, without MCP_ENDPOINT, and in English (the tests
 * assert English; the machine's locale may be Chinese) unless `extra` sets a locale of its own.
 */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, MCP_ENDPOINT: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C', ...extra };
}

/** The CLI users run (XT_CLI_BIN runs the tests against another build, e.g. an older one). */
export const BIN = process.env.XT_CLI_BIN ?? path.resolve(__dirname, '../../bin/xiaozhi-tray.js');

/**
 * The script a test starts the CLI with (`node CLI_SCRIPT args`): test/fixtures/cli-launcher.cjs, which
 * loads the same bundle as BIN with V8's code cache (a third less CPU a start). A test about bin itself
 * (or one that must see its file name in `ps`) starts BIN.
 */
export const CLI_SCRIPT = process.env.XT_CLI_BIN ?? path.resolve(__dirname, '../fixtures/cli-launcher.cjs');
/** `node CLI_SCRIPT`: the command line of the CLI, before its arguments. */
export const CLI: readonly string[] = [process.execPath, CLI_SCRIPT];
