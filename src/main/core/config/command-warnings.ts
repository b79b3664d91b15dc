import { mirrorUrls } from '../../../shared/mirrors';
import { installCommand, RUNTIME_LABEL, runtimeNeed } from '../../../shared/runtime-need';
import type { Settings } from '../../../shared/settings';
import { findOnPath } from '../system/find-on-path';
import type { ConfigProblem } from './json-text';

/**
 * Warnings for stdio servers whose command is not on this PATH (or only those whose runtime, Node.js
 * or uv, is missing, with the command that installs it). Only warnings: the desktop app
 * (started from a launcher) and a service see another PATH than this shell.
 */
export function commandWarnings(
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
  options: { runtimesOnly?: boolean } = {},
): ConfigProblem[] {
  const warnings: ConfigProblem[] = [];
  settings.servers.forEach((server, index) => {
    if (server.transport !== 'stdio' || !server.enabled) return;
    if (findOnPath(server.command, { ...env, ...server.env })) return;
    const need = runtimeNeed(server.command, process.platform);
    if (!need && options.runtimesOnly) return;
    warnings.push({
      path: `servers[${index}].command`,
      message: need
        ? `server "${server.name}": the command "${server.command}" needs ${RUNTIME_LABEL[need]}, which was not found on PATH here; install it with: ${installCommand(need, process.platform, mirrorUrls(settings.mirrors), process.arch)} (or start with --fetch-runtimes, and the app fetches it itself, from the config's download sources)`
        : `server "${server.name}": the command "${server.command}" was not found on PATH here (install it or give its full path; the desktop app and services may see another PATH)`,
    });
  });
  return warnings;
}
