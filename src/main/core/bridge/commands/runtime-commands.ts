import type { runtimeCommands } from '../../../../shared/bridge-api';
import { type Problem, problem } from '../../../../shared/problem';
import type { RuntimeFetch } from '../../../../shared/runtime-fetch';
import { RUNTIME_LABEL, type RuntimeName } from '../../../../shared/runtime-need';
import type { ServerStatus } from '../../../../shared/status';
import { ProblemError } from '../../problems/server-problems';
import type { RuntimeProvider } from '../../runtimes/child-runtime';
import { redactProblem } from '../../secrets/bridge-secrets';
import type { CommandHandlers } from './command-handlers';

/** What the runtime commands need of the bridge. */
export interface RuntimeCommandContext {
  /** The app's folder of runtimes; none where nothing may be downloaded (a run without its web page). */
  runtimes: RuntimeProvider | undefined;
  servers(): ServerStatus[];
  /** Starts a server, without waiting for it. */
  start(name: string): void;
  emit(event: RuntimeFetch): void;
  /** What leaves the engine is redacted (a download source's address may hold a password). */
  redact(text: string): string;
}

/** Why a server is waiting for a runtime: missing here, or its download failed or was refused. */
const WAITING = new Set(['server.runtimeMissing', 'server.runtimeDownloadFailed', 'server.runtimeMismatch']);

const waitsFor = (status: ServerStatus, runtime: RuntimeName) =>
  status.enabled &&
  status.state === 'failed' &&
  WAITING.has(status.lastErrorCause?.code ?? '') &&
  status.lastErrorCause?.params.runtime === RUNTIME_LABEL[runtime];

/** Download uv / Node.js when the person asks (the window's button), then start what waited for it. */
export function runtimeCommandHandlers(c: RuntimeCommandContext): CommandHandlers<typeof runtimeCommands> {
  /**
   * The download of each runtime under way: a second request (another tab, a button pressed again, a
   * flood) joins it, so each step is told every page once, not once per request.
   */
  const underWay = new Map<RuntimeName, Promise<{ version: string } | { problem: Problem }>>();
  const fetchOnce = async (store: RuntimeProvider, runtime: RuntimeName): Promise<{ version: string } | { problem: Problem }> => {
    c.emit({ runtime, state: 'fetching' });
    try {
      const prepared = await store.ensure(runtime, (percent) => {
        if (percent !== undefined) c.emit({ runtime, state: 'fetching', percent });
      });
      c.emit({ runtime, state: 'done', version: prepared.version });
      for (const status of c.servers()) if (waitsFor(status, runtime)) c.start(status.name);
      return { version: prepared.version };
    } catch (error) {
      // Said in the window in the reader's language, as a server's failed download is.
      const cause = redactProblem(
        error instanceof ProblemError
          ? error.problem
          : problem('server.runtimeDownloadFailed', { runtime: RUNTIME_LABEL[runtime], reason: (error as Error).message }),
        (text) => c.redact(text),
      );
      c.emit({ runtime, state: 'failed', problem: cause });
      return { problem: cause };
    }
  };
  return {
    fetchRuntime: async ({ runtime }) => {
      const store = c.runtimes;
      if (!store)
        throw new Error(
          `This run cannot download ${RUNTIME_LABEL[runtime]}: start it with --ui or --fetch-runtimes, or install ${RUNTIME_LABEL[runtime]} yourself.`,
        );
      let fetching = underWay.get(runtime);
      if (!fetching) {
        fetching = fetchOnce(store, runtime).finally(() => underWay.delete(runtime));
        underWay.set(runtime, fetching);
      }
      return fetching;
    },
  };
}
