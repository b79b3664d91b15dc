import { summarizeActivity } from '../../shared/activity';
import { waitsForUser } from '../../shared/sign-in-status';
import { hasServers, takenByOther, userToolCount } from '../../shared/status-summary';
import { useApp } from '../app-context';
import { BackgroundTasks } from '../components/background-tasks';
import { HostNotices } from '../components/host-notices';
import { EndpointAddress } from '../components/masked-text';
import { PagePanels } from '../components/page-panels';
import { ProblemText } from '../components/problem-text';
import { RecentCalls } from '../components/recent-calls';
import { RecentFailures } from '../components/recent-failures';
import { servingSentence, userToolsOf } from '../components/serving-sentence';
import { StatFigure } from '../components/stat-figure';
import { endpointBadge, endpointTone } from '../components/status-tone';
import { StatusBadge } from '../components/ui';
import { useActivitySamples } from '../components/use-activity';
import { useNow } from '../components/use-now';
import { formatBytes, formatSince } from '../format';
import { useStore } from '../store/bridge-store';
import { FirstRunGuide } from './first-run-guide';
import { SetupChecklist } from './setup-checklist';
import { XiaozhiStatus } from './xiaozhi-status';

export function OverviewPage(props: { go: (page: string) => void }) {
  const { store, t, language } = useApp();
  const state = useStore(store, (d) => d.state);
  const history = useStore(store, (d) => d.history);
  const userTools = userToolCount(state);
  const limit = useStore(store, (d) => d.settings?.limits.maxMessageBytes ?? 8192);
  const now = useNow();
  const samples = useActivitySamples();
  if (state.endpoints.length === 0) return <FirstRunGuide go={props.go} />;

  const readNow = state.endpoints.some((e) => e.state === 'connected' && (e.toolsRead?.count ?? 0) > 0);
  // Xiaozhi (or a local client) called a tool before: kept across restarts, unlike what it read.
  const usedBefore = samples?.some((s) => s.caller !== 'ui') ?? false;
  // Every call of the last 24 hours, from xiaozhi or this window, kept across restarts: the number Activity says.
  // Until the record is read, no number (a 0 would be a wrong one).
  // A call waiting for the person's OK is listed below but counted in the record only once answered: counted here too.
  const waiting = history.filter((h) => h.outcome === 'held').length;
  const callsToday = samples ? summarizeActivity(samples, 'day', now, []).calls + waiting : undefined;
  const enabled = state.servers.filter((s) => s.enabled);
  const running = enabled.filter((s) => s.state === 'running').length;
  // One waiting for a sign-in or a download is said in amber in the headline above, not counted failed here.
  const failed = enabled.filter((s) => s.state === 'failed' && !waitsForUser(s)).length;
  const restarting = enabled.filter((s) => s.state === 'restarting').length;
  const size = t('overview.toolsSize', { size: formatBytes(state.catalog.bytes), pages: state.catalog.pages, limit: formatBytes(limit) });
  const searching = state.endpoints.map((e) => e.served).find((served) => served?.mode === 'router');

  return (
    <div className="page">
      <h1>{t('nav.overview')}</h1>
      <PagePanels />
      <HostNotices />
      <XiaozhiStatus state={state} />
      <RecentFailures samples={samples} now={now} />
      {/* Until xiaozhi has read a tool, what is left to do (the guide used to vanish once an endpoint was added). */}
      {/* After a restart xiaozhi reads the tools again only at its next conversation: a setup it used before is done. */}
      {hasServers(state) && (readNow || usedBefore) ? null : <SetupChecklist state={state} />}
      <BackgroundTasks />
      <section className="cards" aria-label={t('nav.endpoints')}>
        {state.endpoints.map((e) => (
          <article className="card endpoint-card" key={e.id}>
            <div className="card-row">
              <strong className="card-title">{e.name}</strong>
              <StatusBadge tone={endpointTone[e.state]}>{t(endpointBadge(e))}</StatusBadge>
            </div>
            {/* With one endpoint, how it is served is said in the headline, beside what xiaozhi read. */}
            {e.served && hasServers(state) && state.endpoints.length > 1 ? (
              <div className="small">{servingSentence(e.served, t)}</div>
            ) : null}
            {e.state === 'connected' ? (
              <div className="small">{t('overview.connectedFor', { time: formatSince(e.since, t, now) })}</div>
            ) : null}
            {e.state === 'waiting' && e.retryAt ? (
              <div className="small">
                {takenByOther(e)
                  ? t('overview.lookAgainIn', { seconds: Math.max(0, Math.ceil((e.retryAt - now) / 1000)) })
                  : t('overview.retryIn', { seconds: Math.max(0, Math.ceil((e.retryAt - now) / 1000)), attempts: e.attempts })}
              </div>
            ) : null}
            {e.state !== 'connected' ? (
              <ProblemText problem={e.lastErrorCause} text={e.lastError} tone={takenByOther(e) ? 'warn' : 'bad'} />
            ) : null}
            <EndpointAddress url={e.url} />
          </article>
        ))}
      </section>

      <section className="stats">
        <div className="stat">
          <StatFigure text={t('overview.serversRunning', { running, total: enabled.length })} value={`${running}/${enabled.length}`} />
          {failed > 0 ? <div className="small error-text">{t('summary.servers.failed', { count: failed })}</div> : null}
          {restarting > 0 ? <div className="small muted">{t('summary.servers.restarting', { count: restarting })}</div> : null}
        </div>
        <div className="stat">
          <StatFigure text={t('overview.toolsServed', { count: userTools })} value={userTools.toLocaleString(language)} />
          <details className="small muted">
            <summary>{t('plain.details')}</summary>
            {/* In search mode xiaozhi gets a few tools to find the rest: that is said, the whole list's size only in the tooltip. */}
            {searching ? (
              <span title={size}>{t('names8.served.countRouter', { count: searching.toolCount, user: userToolsOf(searching) })}</span>
            ) : (
              size
            )}
          </details>
        </div>
        <div className="stat">
          {callsToday !== undefined ? (
            <StatFigure text={t('activity.callsIn.day', { count: callsToday })} value={callsToday.toLocaleString(language)} />
          ) : (
            <StatFigure text={t('activity.callsIn.day', { count: 0 }).replace('0', '…')} value="…" />
          )}
        </div>
      </section>

      <RecentCalls samples={samples} now={now} />
    </div>
  );
}
