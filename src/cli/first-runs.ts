import type { Bridge } from '../main/core/bridge';
import { defaultSupervision } from '../main/core/servers/child-server';

/**
 * Servers still downloading and installing on their first run (`npx`, `uvx`…) when the start grace
 * is over: each is said on stderr, then waited for until it is up or has failed (its longer start
 * timeout bounds it). Otherwise `tools` and `servers` printed them as "starting" and exited 1.
 */
export async function waitForFirstRuns(bridge: Bridge, say: (text: string) => void): Promise<void> {
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
      say(`${server.name}: fetching ${runtime} ${server.runtime.version ?? ''} for it; waiting for it (Ctrl+C stops)`);
      continue;
    }
    const { runner, package: name } = server.installing ?? { runner: '' };
    say(
      `${server.name}: ${runner} is downloading and installing ${name ?? 'it'} for its first run; waiting for it (at most ${minutes} min; Ctrl+C stops)`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = bridge.on('status', () => {
      if (busy().length > 0) return;
      stop();
      resolve();
    });
  });
}
