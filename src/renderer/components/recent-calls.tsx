import type { ActivitySample } from '../../shared/activity';
import type { CallRecord } from '../../shared/status';
import { useApp } from '../app-context';
import { callDuration, formatDateTime, formatTime } from '../format';
import { useStore } from '../store/bridge-store';
import { ConfirmationNote } from './confirmation-note';
import { OutcomeBadge } from './outcome-badge';
import { ToolLabel, useServedName } from './tool-label';
import { callsBeforeHistory, historyStart } from './use-activity';

const SHOWN = 6;

interface Row {
  key: string;
  time: number;
  caller: string;
  tool: string;
  server: string;
  durationMs: number;
  outcome: CallRecord['outcome'];
  confirmation?: CallRecord['confirmation'];
}

/**
 * The latest calls, newest first: this run's history, then, when it holds fewer, the calls kept from
 * before the app restarted (the activity record the call counts come from). The history alone said
 * "no calls yet" beside "8 calls in 24 hours" after a restart.
 */
export function recentRows(
  history: readonly CallRecord[],
  samples: readonly ActivitySample[] | undefined,
  served: (server: string, tool: string) => string,
): Row[] {
  const rows: Row[] = history
    .slice(-SHOWN)
    .reverse()
    .map((h) => ({ ...h, key: `h${h.id}` }));
  if (rows.length >= SHOWN || !samples) return rows;
  // This run's calls are in both: only those older than the run's first kept call are added.
  const before = historyStart(history);
  for (let i = samples.length - 1; i >= 0 && rows.length < SHOWN; i--) {
    const s = samples[i] as ActivitySample;
    if (s.time >= before) continue;
    rows.push({ ...s, key: `s${i}`, tool: served(s.server, s.tool) });
  }
  return rows;
}

export function RecentCalls(props: { samples: readonly ActivitySample[] | undefined; now: number }) {
  const { store, t, language } = useApp();
  const history = useStore(store, (d) => d.history);
  const served = useServedName();
  const rows = recentRows(history, props.samples, served);
  const earlier = callsBeforeHistory(history, props.samples);
  const startOfDay = new Date(props.now).setHours(0, 0, 0, 0);
  return (
    <section className="recent-calls">
      <div className="section-header">
        <h2>{t('overview.recentCalls')}</h2>
        {/* One label per place, naming where it goes (issue 33): History holds this run's calls, Activity the earlier ones. */}
        {history.length > 0 || rows.length > 0 ? (
          <span className="links">
            {history.length > 0 ? <a href="#/history">{t('overview.viewHistory')}</a> : null}
            {history.length > 0 && earlier > 0 ? ' · ' : null}
            {earlier > 0 || history.length === 0 ? <a href="#/activity">{t('overview.viewActivity')}</a> : null}
          </span>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="muted">{t('overview.noCalls')}</p>
      ) : (
        <table className="table">
          <tbody>
            {rows.map((h) => (
              <tr key={h.key}>
                <td className="small nowrap">{h.time >= startOfDay ? formatTime(h.time, language) : formatDateTime(h.time, language)}</td>
                <td>{h.caller === 'ui' ? t('history.fromWindow') : h.caller}</td>
                <td>
                  <ToolLabel name={h.tool} server={h.server} />
                </td>
                <td className="small">{callDuration(h, t)}</td>
                <td>
                  <OutcomeBadge outcome={h.outcome} />
                  <ConfirmationNote confirmation={h.confirmation} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
