import type { Bridge } from '../main/core/bridge';
import { defaultSupervision } from '../main/core/servers/child-server';
import type { Translate } from '../shared/i18n/translate';

/**
 * Servers still downloading and installing on their first run (`npx`, `uvx`…) when the start grace
 * is over: each is said on stderr, then waited for until it is up or has failed (its longer start
 * timeout bounds it). Otherwise `tools` and `servers` printed them as "starting" and exited 1.
 */
export async function waitForFirstRuns(bridge: Bridge, say: (text: string) => void, t: Translate): Promise<void> {
  // A server whose runtime is being fetched (`--fetch-runtimes`) is waited for too, until it has started or failed.
  const waitedFor = new Set<string>();
  const busy = () =>
    bridge
      .state()
      .servers.filter(
        (s) => s.installing !== undefined || s.runtime?.fetching !== undefined || (waitedFor.has(s.name) && s.state === 'starting'),
      );
  const waiting = busy();
  if (waiting.length === 0) return;
  const minutes = Math.round(defaultSupervision.installTimeoutMs / 60_000);
  for (const server of waiting) {
    waitedFor.add(server.name);
    if (server.runtime?.fetching) {
      const runtime = server.runtime.name === 'node' ? 'Node.js' : 'uv';
      say(t('cli.firstRun.fetchingRuntime', { server: server.name, runtime, version: server.runtime.version ?? '' }));
      continue;
    }
    const { runner, package: name } = server.installing ?? { runner: '' };
    say(t(name ? 'cli.firstRun.installing' : 'cli.firstRun.installingIt', { server: server.name, runner, name: name ?? '', minutes }));
  }
  await new Promise<void>((resolve) => {
    const stop = bridge.on('status', () => {
      if (busy().length > 0) return;
      stop();
      resolve();
    });
  });
}
