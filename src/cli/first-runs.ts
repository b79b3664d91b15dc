import type { Bridge } from '../main/core/bridge';
import { defaultSupervision } from '../main/core/servers/child-server';
import type { Translate } from '../shared/i18n/translate';

/**
 * Servers still downloading and installing on their first run (`npx`, `uvx`…) when the start grace
 * is over: each is said on stderr, then waited for until it is up or has failed (its longer start
 * timeout bounds it). Otherwise `tools` and `servers` printed them as "starting" and exited 1.
 */
export async function waitForFirstRuns(bridge: Bridge, say: (text: string) => void, t: Translate): Promise<void> {
  const installing = () => bridge.state().servers.filter((s) => s.installing !== undefined);
  const waiting = installing();
  if (waiting.length === 0) return;
  const minutes = Math.round(defaultSupervision.installTimeoutMs / 60_000);
  for (const server of waiting) {
    const { runner, package: name } = server.installing ?? { runner: '' };
    say(t(name ? 'cli.firstRun.installing' : 'cli.firstRun.installingIt', { server: server.name, runner, name: name ?? '', minutes }));
  }
  await new Promise<void>((resolve) => {
    const stop = bridge.on('status', () => {
      if (installing().length > 0) return;
      stop();
      resolve();
    });
  });
}
