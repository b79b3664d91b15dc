import type { Bridge } from '../main/core/bridge/bridge';
import { defaultSupervision } from '../main/core/servers/child-server';
import type { Translate } from '../shared/i18n/translate';
import type { ServerStatus } from '../shared/status';

export interface StartWait {
  /**
   * Without `waitMs`: how long a wait goes on with no server coming up (or failing). Servers that
   * keep coming up (a busy machine starts them one after another) are waited for; one that hangs
   * holds nobody past this. `limits.startGraceMs`.
   */
  idleMs: number;
  /** `--wait SECONDS`: the whole wait, whatever comes up or not. */
  waitMs?: number | undefined;
  say(text: string): void;
  t: Translate;
  /** How often the servers still starting are said. */
  everyMs?: number;
}

/** A server still starting: its first attempt, a first run of npx or uvx installing, or its runtime being fetched. */
const starting = (s: ServerStatus) => s.enabled && s.state === 'starting';
const installing = (s: ServerStatus) => s.installing !== undefined || s.runtime?.fetching !== undefined;

/**
 * For the commands that look at servers (`tools`, `servers`, `call`): waits for what is really
 * starting, and says what is while it waits. It used to wait a fixed grace (20 s) and then print
 * "starting", 0 tools and exit 1 on a busy machine. A first run downloading its package (or a
 * runtime being fetched) is said and waited for (its longer start timeout bounds it). Returns the
 * servers still starting when the wait ended, said with how to wait longer.
 */
export async function waitForStarts(bridge: Bridge, opts: StartWait): Promise<string[]> {
  const { say, t } = opts;
  const started = Date.now();
  let lastChange = started;
  let pending = new Set(
    bridge
      .state()
      .servers.filter(starting)
      .map((s) => s.name),
  );
  if (pending.size === 0) return [];
  const announced = new Set<string>();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const every = opts.everyMs ?? 5000;
  // The first word after 2 s (a quick start says nothing), then every few seconds.
  let lastSaid = started - Math.max(0, every - 2000);
  const stillStarting = await new Promise<string[]>((resolve) => {
    const look = () => {
      const servers = bridge.state().servers.filter(starting);
      const now = new Set(servers.map((s) => s.name));
      if ([...pending].some((name) => !now.has(name))) lastChange = Date.now();
      pending = now;
      for (const server of servers.filter(installing)) announceFirstRun(server, announced, say, t);
      const waited = Date.now() - started;
      const over = opts.waitMs !== undefined ? waited >= opts.waitMs : !servers.some(installing) && Date.now() - lastChange >= opts.idleMs;
      if (servers.length === 0 || over) {
        stop();
        resolve(servers.map((s) => s.name));
        return;
      }
      if (Date.now() - lastSaid >= every) {
        lastSaid = Date.now();
        say(t('cli.wait.still', { seconds: seconds(), names: servers.map((s) => s.name).join(', ') }));
      }
    };
    const off = bridge.on('status', look);
    const timer = setInterval(look, 250);
    const stop = () => {
      off();
      clearInterval(timer);
    };
    look();
  });
  if (stillStarting.length > 0) say(t('cli.wait.gaveUp', { seconds: seconds(), names: stillStarting.join(', ') }));
  return stillStarting;
}

/** A first run seen installing its package, or its runtime being fetched: said once. */
function announceFirstRun(server: ServerStatus, announced: Set<string>, say: (text: string) => void, t: Translate): void {
  if (announced.has(server.name)) return;
  announced.add(server.name);
  if (server.runtime?.fetching) {
    const runtime = server.runtime.name === 'node' ? 'Node.js' : 'uv';
    say(t('cli.firstRun.fetchingRuntime', { server: server.name, runtime, version: server.runtime.version ?? '' }));
    return;
  }
  const minutes = Math.round(defaultSupervision.installTimeoutMs / 60_000);
  const { runner, package: name } = server.installing ?? { runner: '' };
  say(t(name ? 'cli.firstRun.installing' : 'cli.firstRun.installingIt', { server: server.name, runner, name: name ?? '', minutes }));
}
