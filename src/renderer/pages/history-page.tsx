import { Fragment, useEffect, useMemo, useState } from 'react';

import { failedOutcome } from '../../shared/activity';
import { useApp } from '../app-context';
import { ArgumentList } from '../components/argument-list';
import { CallResult } from '../components/call-cause';
import { ConfirmationNote } from '../components/confirmation-note';
import { OutcomeBadge } from '../components/outcome-badge';
import { PagePanels } from '../components/page-panels';
import { ToolLabel, useServedName } from '../components/tool-label';
import { EmptyState } from '../components/ui';
import { callsBeforeHistory, historyStart, useActivitySamples } from '../components/use-activity';
import { useNow } from '../components/use-now';
import { callDuration, formatDateTime } from '../format';
import { useStore } from '../store/bridge-store';

const DAY_MS = 24 * 3600_000;
/**
 * The earlier calls listed at most (the newest): the record keeps up to 20,000, and a busy local client's
 * day listed them all, re-rendered at each call. The rest are counted on the Activity page, as older ones are.
 */
const EARLIER_LISTED = 200;

export function HistoryPage() {
  const { store, t, language } = useApp();
  const history = useStore(store, (d) => d.history);
  const served = useServedName();
  const [open, setOpen] = useState<number | undefined>();
  const onlyFailed = useOnlyFailed();
  const all = history.slice().reverse();
  const rows = onlyFailed ? all.filter(failedOutcome) : all;
  const samples = useActivitySamples();
  const now = useNow(60_000);
  // The calls of the last day from before this run (kept without arguments or results), as 最近调用 lists them:
  // after a restart the overview's count of failures linked here to "none" (walkthrough 4).
  const before = historyStart(history);
  // The record holds up to 20,000 calls and this page renders again at each call: read it only when it or the start changed.
  const { earlierRows, listed } = useMemo(() => {
    const earlierAll = (samples ?? []).filter((s) => s.time < before && s.time > now - DAY_MS).reverse();
    return {
      earlierRows: (onlyFailed ? earlierAll.filter(failedOutcome) : earlierAll).slice(0, EARLIER_LISTED),
      listed: Math.min(earlierAll.length, EARLIER_LISTED),
    };
  }, [samples, before, now, onlyFailed]);
  const earlier = callsBeforeHistory(history, samples) - listed;
  return (
    <div className="page">
      <h1>{t('nav.history')}</h1>
      <PagePanels />
      {onlyFailed ? (
        <p className="small">
          {t('history.onlyFailed')} <a href="#/history">{t('history.showAll')}</a>
        </p>
      ) : null}
      {onlyFailed && rows.length === 0 && earlierRows.length === 0 ? (
        <p className="muted">{t('history.noneFailed')}</p>
      ) : rows.length === 0 && earlierRows.length === 0 ? (
        // The history is this run's: after a restart, the calls kept from before are on the Activity page (not "no calls yet").
        earlier > 0 ? (
          <EmptyState title={t('history.noneSinceStart')}>
            <p className="muted">{t('history.earlierInActivity', { count: earlier })}</p>
            <a href="#/activity">{t('overview.viewActivity')}</a>
          </EmptyState>
        ) : (
          <EmptyState title={t('history.none')}>
            <p className="muted">{t('history.noneHint')}</p>
            <a href="#/tools">{t('activity.tryTools')}</a>
          </EmptyState>
        )
      ) : (
        <table className="table history">
          <thead>
            <tr>
              <th>{t('history.time')}</th>
              <th>{t('history.caller')}</th>
              <th>{t('history.tool')}</th>
              <th>{t('history.duration')}</th>
              <th>{t('history.outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((h) => (
              <Fragment key={h.id}>
                <tr
                  className="clickable"
                  tabIndex={0}
                  aria-expanded={open === h.id}
                  onClick={() => setOpen(open === h.id ? undefined : h.id)}
                  onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setOpen(open === h.id ? undefined : h.id)}
                >
                  <td className="small nowrap">{formatDateTime(h.time, language)}</td>
                  <td>{h.caller === 'ui' ? t('history.fromWindow') : h.caller}</td>
                  <td>
                    <ToolLabel name={h.tool} server={h.server} />
                    {/* Allowed in a confirmation, it ran as an ordinary call: the note beside it says who allowed it. */}
                    {h.task && h.confirmation?.state !== 'allowed' ? (
                      <span className="small muted">
                        {' '}
                        · {t(h.disconnected ? 'tasks.taskAfterDisconnect' : 'tasks.task', { id: h.task })}
                      </span>
                    ) : null}
                  </td>
                  <td className="small">{callDuration(h, t)}</td>
                  <td>
                    <OutcomeBadge outcome={h.outcome} />
                    <ConfirmationNote confirmation={h.confirmation} />
                  </td>
                </tr>
                {open === h.id ? (
                  <tr className="details-row">
                    <td colSpan={5}>
                      <div className="small muted">{t('history.arguments')}</div>
                      <ArgumentList json={h.arguments} />
                      <CallResult record={h} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
            {earlierRows.length > 0 ? (
              <tr className="history-earlier">
                <td colSpan={5} className="small muted">
                  {t('history.beforeRestart')}
                </td>
              </tr>
            ) : null}
            {earlierRows.map((s, i) => (
              <tr key={`s${s.time}-${i}`}>
                <td className="small nowrap">{formatDateTime(s.time, language)}</td>
                <td>{s.caller === 'ui' ? t('history.fromWindow') : s.caller}</td>
                <td>
                  <ToolLabel name={served(s.server, s.tool)} server={s.server} />
                </td>
                <td className="small">{callDuration(s, t)}</td>
                <td>
                  <OutcomeBadge outcome={s.outcome} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {/* This run's calls only: the earlier ones, kept a week, are counted on the Activity page (issue 33). */}
      {rows.length + earlierRows.length > 0 && earlier > 0 ? (
        <p className="small muted">
          {t('history.earlierInActivity', { count: earlier })} <a href="#/activity">{t('overview.viewActivity')}</a>
        </p>
      ) : null}
    </div>
  );
}

/** `#/history?failed` (the overview's link when many recent calls failed): only the calls that did not work. */
function useOnlyFailed(): boolean {
  const read = () => /[?&]failed\b/.test(window.location.hash);
  const [only, setOnly] = useState(read);
  useEffect(() => {
    const onHash = () => setOnly(read());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return only;
}
