import { Fragment } from 'react';

import { isXiaozhiMe } from '../../shared/endpoint-url';
import { runtimesAwaited, stepAwaited, waitsForUser } from '../../shared/sign-in-status';
import type { BridgeState } from '../../shared/status';
import { endpointsLine, hasServers, userToolCount } from '../../shared/status-summary';
import { useApp } from '../app-context';
import { useServerTitle } from '../components/server-title';
import { servingSentence } from '../components/serving-sentence';
import type { Tone } from '../components/ui';
import { useNow } from '../components/use-now';

/** The servers page, opened at one server's card or with the catalogue open. */
export function serversLink(to: { server?: string; add?: boolean } = {}): string {
  if (to.server) return `#/servers?server=${encodeURIComponent(to.server)}`;
  return to.add ? '#/servers?add=catalogue' : '#/servers';
}

/** Servers named in a sentence, each a link to its card. */
export function ServerLinks(props: { names: string[] }) {
  const { t } = useApp();
  const title = useServerTitle();
  return props.names.map((name, i) => (
    <Fragment key={name}>
      {i > 0 ? t('list.separator') : null}
      <a href={serversLink({ server: name })}>{title(name)}</a>
    </Fragment>
  ));
}

/** Connected this long to a self-hosted relay without a read of the tools: worth a look. */
const QUIET_READ_MS = 3600_000;

/** Is xiaozhi working? Connected, and how many tools it read: the first line of the overview. */
export function xiaozhiLine(state: BridgeState, t: ReturnType<typeof useApp>['t'], now: number): { tone: Tone; text: string } {
  const connected = state.endpoints.filter((e) => e.state === 'connected');
  if (connected.length === 0) {
    const trying = state.endpoints.some((e) => e.state === 'connecting' || e.state === 'waiting');
    if (!trying || !state.running) return { tone: 'bad', text: t('xiaozhi.notConnected') };
    // What the sidebar and the tray say, in the same words: a refused token, another program, repeated failures.
    const line = endpointsLine(state);
    if (line.key === 'summary.endpoints.connecting') return { tone: 'warn', text: t('xiaozhi.connecting') };
    return { tone: line.tone === 'busy' ? 'warn' : line.tone, text: t(line.key, line.params) };
  }
  const read = Math.max(0, ...connected.map((e) => e.toolsRead?.count ?? 0));
  // With no server, what xiaozhi read are the app's own task tools: not the user's tools.
  if (read > 0 && !hasServers(state)) return { tone: 'warn', text: t('xiaozhi.onlyOwnTools') };
  // A server the user must see to (failed, not one waiting for a sign-in or a download, which says so itself): not all is well.
  const stopped = state.servers.filter((s) => s.enabled && s.state === 'failed' && !waitsForUser(s)).length;
  if (read > 0 && stopped > 0) return { tone: 'warn', text: t('xiaozhi.serversStopped', { count: stopped }) };
  // The user's tools, as "tools provided" counts them: in search mode xiaozhi reads a few search tools and can use
  // them all; else what it read, less the app's own (a walkthrough saw "已读取 17" beside "已提供 14").
  if (read > 0 && connected.some((e) => e.served?.mode === 'router'))
    return { tone: 'ok', text: t('xiaozhi.workingSearch', { count: userToolCount(state) }) };
  if (read > 0) return { tone: 'ok', text: t('xiaozhi.working', { count: Math.max(0, read - (state.catalog.appTools ?? 0)) }) };
  // Xiaozhi reads the tools when a conversation starts: after each start of the app, until someone speaks, not having read
  // them is normal, said calmly. Amber only past an hour connected to a self-hosted relay (one that can forget a connection).
  const longest = Math.min(...connected.map((e) => e.since));
  if (now - longest > QUIET_READ_MS && connected.every((e) => !isXiaozhiMe(e.url))) return { tone: 'warn', text: t('xiaozhi.notReadLong') };
  return { tone: 'ok', text: t('xiaozhi.readsAtNextTalk') };
}

/** The overview's headline: xiaozhi first, then the servers' health, failed ones named and linked to their card. */
export function XiaozhiStatus({ state }: { state: BridgeState }) {
  const { t } = useApp();
  const userTools = userToolCount(state);
  const now = useNow(60_000);
  const line = xiaozhiLine(state, t, now);
  // Searching first is said where the count xiaozhi read is (it used to sit in the endpoint's card).
  const searching = line.tone === 'ok' ? state.endpoints.find((e) => e.state === 'connected' && e.served?.mode === 'router') : undefined;
  const searches = searching?.served ? servingSentence(searching.served, t) : null;
  const enabled = state.servers.filter((s) => s.enabled);
  const running = enabled.filter((s) => s.state === 'running').length;
  const signIn = enabled.filter((s) => stepAwaited(s) === 'signIn');
  const runtime = enabled.filter((s) => stepAwaited(s) === 'runtime');
  const failed = enabled.filter((s) => s.state === 'failed' && !waitsForUser(s));
  const restarting = enabled.filter((s) => s.state === 'restarting');
  return (
    <section className={`summary-banner tone-${line.tone}`} aria-label={t('xiaozhi.label')}>
      <span className={`brand-dot tone-${line.tone}`} aria-hidden="true" />
      <div>
        <div className={`summary-headline tone-text-${line.tone}`}>{line.text}</div>
        {searches ? <div className="small">{searches}</div> : null}
        <div className="small">
          {!state.running ? (
            t('summary.stopped')
          ) : enabled.length === 0 ? (
            <a href={serversLink({ add: true })}>{t('xiaozhi.noServers')}</a>
          ) : (
            t('xiaozhi.servers', { running, total: enabled.length, tools: userTools })
          )}
          {failed.length > 0 ? (
            <span className="error-text">
              {' · '}
              {t('xiaozhi.failed')}
              <ServerLinks names={failed.map((s) => s.name)} />
            </span>
          ) : null}
          {signIn.length > 0 ? (
            <span className="warn-text">
              {' · '}
              {t('xiaozhi.needSignIn')}
              <ServerLinks names={signIn.map((s) => s.name)} />
            </span>
          ) : null}
          {runtime.length > 0 ? (
            <span className="warn-text">
              {' · '}
              {t('xiaozhi.needRuntime', { runtime: runtimesAwaited(runtime).join(', ') })}
              <ServerLinks names={runtime.map((s) => s.name)} />
            </span>
          ) : null}
          {restarting.length > 0 ? <span className="muted"> · {t('summary.servers.restarting', { count: restarting.length })}</span> : null}
        </div>
      </div>
    </section>
  );
}
