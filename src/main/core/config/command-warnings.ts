import { translate } from '../../../shared/i18n/translate';
import { mirrorUrls } from '../../../shared/mirrors';
import { problem } from '../../../shared/problem';
import { runtimeNeed } from '../../../shared/runtime-need';
import type { Settings } from '../../../shared/settings';
import { runtimeMissingParams } from '../runtimes/child-runtime';
import { findOnPath } from '../system/find-on-path';
import { placeOf, placePreset } from '../system/system-locale';
import type { ConfigProblem } from './json-text';

/**
 * Warnings for stdio servers whose command is not on this PATH (or only those whose runtime, Node.js
 * or uv, is missing, with the command that installs it). Only warnings: the desktop app
 * (started from a launcher) and a service see another PATH than this shell.
 */
export function commandWarnings(
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
  /** `pageDownloads`: a run with its web page, whose Download button fetches a missing runtime. */
  options: { runtimesOnly?: boolean; pageDownloads?: boolean } = {},
): ConfigProblem[] {
  const warnings: ConfigProblem[] = [];
  settings.servers.forEach((server, index) => {
    if (server.transport !== 'stdio' || !server.enabled) return;
    if (findOnPath(server.command, { ...env, ...server.env })) return;
    const need = runtimeNeed(server.command, process.platform);
    if (!need && options.runtimesOnly) return;
    if (!need) {
      warnings.push({
        path: `servers[${index}].command`,
        message: `server "${server.name}": the command "${server.command}" was not found on PATH here (install it or give its full path; the desktop app and services may see another PATH)`,
      });
      return;
    }
    // Coded, so the text log and the web page word it in the reader's language (with the mirrors' command for a Chinese one).
    const { advice, ...params } = runtimeMissingParams(
      need,
      server.command,
      mirrorUrls(settings.mirrors, placePreset(settings.ui.language, placeOf(env))),
    );
    const reason = options.pageDownloads ? (advice === 'official' ? 'pageOfficial' : 'page') : advice;
    const said = problem('cli.runtimeMissing', { ...params, server: server.name, reason });
    warnings.push({
      path: `servers[${index}].command`,
      message: translate(
        'en',
        options.pageDownloads ? 'problem.cli.runtimeMissing.reason.page' : 'problem.cli.runtimeMissing',
        said.params,
      ),
      problem: said,
    });
  });
  return warnings;
}
