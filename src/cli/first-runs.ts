import type { Bridge } from '../main/core/bridge';
import { defaultSupervision } from '../main/core/servers/child-server';

/**
 * Servers still downloading and installing on their first run (`npx`, `uvx`…) when the start grace
 * is over: each is said on stderr, then waited for until it is up or has failed (its longer start
 * timeout bounds it). Otherwise `tools` and `servers` printed them as "starting" and exited 1.
 */
export async function waitForFirstRuns(bridge: Bridge, say: (text: string) => void): Promise<void> {
  const installing = () => bridge.state().servers.filter((s) => s.installing !== undefined);
  const waiting = installing();
  if (waiting.length === 0) return;
  const minutes = Math.round(defaultSupervision.installTimeoutMs / 60_000);
  for (const server of waiting) {
    const { runner, package: name } = server.installing ?? { runner: '' };
    say(
      `${server.name}: ${runner} is downloading and installing ${name ?? 'it'} for its first run; waiting for it (at most ${minutes} min; Ctrl+C stops)`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = bridge.on('status', () => {
      if (installing().length > 0) return;
      stop();
      resolve();
    });
  });
}
