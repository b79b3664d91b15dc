import { useMemo, useState } from 'react';

import { type ActivityRange, exportActivity, summarizeActivity } from '../../shared/activity';
import { RESERVED_SERVER_NAME } from '../../shared/settings';
import { useApp } from '../app-context';
import { ActivityChart } from '../components/activity-chart';
import { PagePanels } from '../components/page-panels';
import { StatFigure } from '../components/stat-figure';
import { ToolLabel, useServedName } from '../components/tool-label';
import { Button, EmptyState } from '../components/ui';
import { useActivitySamples } from '../components/use-activity';
import { useNow } from '../components/use-now';
import { formatDuration } from '../format';
import { useStore } from '../store/bridge-store';

/** Saves text as a file the user downloads (the desktop app asks where). */
function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The files the calls can be saved as, for a spreadsheet and for log tools. */
const EXPORTS = [
  { format: 'csv', type: 'text/csv' },
  { format: 'jsonl', type: 'application/x-ndjson' },
] as const;

const DAY_MS = 24 * 3600_000;

/** What xiaozhi (and the other callers) did: calls per hour and per tool, failures, latency, tools never called. */
export function ActivityPage() {
  const { store, t, language } = useApp();
  const catalog = useStore(store, (d) => d.catalog);
  const theme = useStore(store, (d) => d.settings?.ui.theme);
  const samples = useActivitySamples();
  const [range, setRange] = useState<ActivityRange>('day');
  const servedName = useServedName();
  const now = useNow(60_000);

  // The app's own tools (task_status, cancel_task, confirm_action) cannot be switched off: not listed as never called.
  const served = useMemo(
    () => catalog.filter((c) => c.enabled && c.server !== RESERVED_SERVER_NAME).map((c) => ({ tool: c.originalName, server: c.server })),
    [catalog],
  );
  // Searching first, xiaozhi reads a short list whatever is switched on: switching tools off would not shorten it.
  const searching = useStore(
    store,
    (d) =>
      d.state.endpoints.some((e) => e.served?.mode === 'router') || (d.settings?.endpoints.some((e) => e.toolMode === 'router') ?? false),
  );
  const summary = useMemo(() => summarizeActivity(samples ?? [], range, now, served), [samples, range, now, served]);
  const labels = useMemo(
    () => ({ time: t('history.time'), calls: t('activity.calls'), failed: t('activity.failed'), range: t(`activity.range.${range}`) }),
    [t, range],
  );
  const stamp = new Date(now).toISOString().slice(0, 10);
  // Tools never called are worth switching off only after a day of use: minutes after adding a server, all are.
  const usedForADay = useMemo(() => (samples ?? []).some((s) => now - s.time >= DAY_MS), [samples, now]);

  return (
    <div className="page activity">
      <div className="page-header">
        <h1>{t('nav.activity')}</h1>
        <div className="row">
          <div className="segmented" role="radiogroup" aria-label={t('activity.range')}>
            {(['day', 'week'] as const).map((r) => (
              <button key={r} type="button" role="radio" aria-checked={range === r} onClick={() => setRange(r)}>
                {t(`activity.range.${r}`)}
              </button>
            ))}
          </div>
          {EXPORTS.map(({ format, type }) => (
            <Button
              key={format}
              small
              disabled={!samples?.length}
              // The table's CSV is a name people know from spreadsheets; the raw file's JSONL is only for those who ask.
              title={format === 'jsonl' ? t('activity.export.jsonlTitle') : undefined}
              onClick={() => download(`xiaozhi-activity-${stamp}.${format}`, exportActivity(samples ?? [], format), type)}
            >
              {t(`activity.export.${format}`)}
              {format === 'csv' ? <span className="small muted"> CSV</span> : null}
            </Button>
          ))}
        </div>
      </div>
      <PagePanels />
      {samples === undefined ? (
        <p className="muted">{t('app.loading')}</p>
      ) : summary.calls === 0 && samples.length === 0 ? (
        <EmptyState title={t('activity.none')}>
          <p className="muted">{t('activity.noneHint')}</p>
          <a href="#/tools">{t('activity.tryTools')}</a>
        </EmptyState>
      ) : (
        <>
          <section className="stats">
            <div className="stat">
              <StatFigure text={t(`activity.callsIn.${range}`, { count: summary.calls })} value={summary.calls.toLocaleString(language)} />
            </div>
            <div className="stat">
              <StatFigure text={t('activity.failedCount', { count: summary.failed })} value={summary.failed.toLocaleString(language)} />
              {summary.calls > 0 ? (
                <div className="small muted">
                  {t('activity.failedShare', { percent: Math.round((summary.failed / summary.calls) * 100) })}
                </div>
              ) : null}
              {/* Answered, but with an error message for text: said apart (amber), neither a success nor a failure. */}
              {summary.errorText > 0 ? (
                <div className="small warn-text" title={t('activity.errorTextHint')}>
                  {t('activity.errorTextCount', { count: summary.errorText })}
                </div>
              ) : null}
            </div>
            <div className="stat">
              <div className="stat-figure">
                <span className="stat-label">{t('plain.typical')}</span>{' '}
                <span className="stat-value">{summary.timed ? formatDuration(summary.p50, t) : '—'}</span>
              </div>
              <div className="small muted">{t('plain.slow', { time: summary.timed ? formatDuration(summary.p95, t) : '—' })}</div>
            </div>
          </section>
          <section className="card">
            <h2>{t(`activity.chartTitle.${range}`)}</h2>
            <ActivityChart
              key={theme ?? 'system'}
              buckets={summary.buckets}
              bucketMs={summary.bucketMs}
              language={language}
              labels={labels}
              description={t('activity.chartDescription', { calls: summary.calls, failed: summary.failed })}
            />
          </section>
          <section>
            <h2>{t('activity.perTool')}</h2>
            {summary.tools.length === 0 ? (
              <p className="muted">{t(`activity.noneIn.${range}`)}</p>
            ) : (
              <table className="table">
                <thead>
                  <tr>
                    <th>{t('history.tool')}</th>
                    <th className="num">{t('activity.calls')}</th>
                    <th className="num">{t('activity.failed')}</th>
                    {summary.errorText > 0 ? <th className="num">{t('activity.errorText')}</th> : null}
                    <th className="num">{t('plain.typical')}</th>
                    <th className="num">{t('plain.slowColumn')}</th>
                  </tr>
                </thead>
                <tbody>
                  {summary.tools.map((row) => (
                    <tr key={`${row.server}/${row.tool}`}>
                      <td>
                        <ToolLabel name={row.server ? servedName(row.server, row.tool) : row.tool} server={row.server} />
                      </td>
                      <td className="num">{row.calls.toLocaleString(language)}</td>
                      <td className={`num${row.failed > 0 ? ' error-text' : ''}`}>{row.failed.toLocaleString(language)}</td>
                      {summary.errorText > 0 ? (
                        <td className={`num${row.errorText > 0 ? ' warn-text' : ''}`}>{row.errorText.toLocaleString(language)}</td>
                      ) : null}
                      <td className="num nowrap">{row.timed ? formatDuration(row.p50, t) : '—'}</td>
                      <td className="num nowrap">{row.timed ? formatDuration(row.p95, t) : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section>
            <h2>{t('activity.neverCalled', { count: summary.neverCalled.length })}</h2>
            {summary.neverCalled.length === 0 ? (
              <p className="muted">{t('activity.allCalled')}</p>
            ) : (
              <>
                {searching || !usedForADay ? null : <p className="muted small">{t('activity.neverCalledHint')}</p>}
                <ul className="chips">
                  {summary.neverCalled.map((n) => (
                    <li key={`${n.server}/${n.tool}`} className="chip small">
                      <ToolLabel name={servedName(n.server, n.tool)} server={n.server} />
                    </li>
                  ))}
                </ul>
                <a href="#/tools">{t('activity.toTools')}</a>
              </>
            )}
          </section>
        </>
      )}
    </div>
  );
}
