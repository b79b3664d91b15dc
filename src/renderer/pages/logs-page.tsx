import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';

import { formatLogLine } from '../../shared/log-line';
import { logMessage } from '../../shared/problem-words';
import type { LogEntry, LogLevel } from '../../shared/status';
import { useApp } from '../app-context';
import { PagePanels } from '../components/page-panels';
import { useServerTitle } from '../components/server-title';
import { Button, EmptyState, Switch } from '../components/ui';
import { formatClock } from '../format';
import { logSourceLabel, logSourceTooltip } from '../log-source';
import { shownMasked } from '../masked';
import { useStore } from '../store/bridge-store';

const ROW = 22;
const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** A line as the page copies and saves it: as the app's own log file writes it, control characters escaped. */
export const logLine = (e: LogEntry): string => formatLogLine(e);

/** `#/logs?source=server:name` opens the page filtered to that source (the Servers page links here). */
const sourceFromHash = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('source') ?? '';

/**
 * Live logs. Only the visible rows are in the page (a maintained virtualiser that measures each row),
 * so 10,000 lines scroll smoothly; a line shows whole when wrapping is on or when clicked.
 */
export function LogsPage() {
  const { store, t, toast } = useApp();
  const title = useServerTitle();
  const live = useStore(store, (d) => d.logs);
  const [paused, setPaused] = useState<LogEntry[] | undefined>();
  const [source, setSource] = useState(sourceFromHash);
  const [level, setLevel] = useState<LogLevel>('info');
  const [text, setText] = useState('');
  const [wrap, setWrap] = useState(false);
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set());
  const [follow, setFollow] = useState(true);
  const box = useRef<HTMLDivElement>(null);
  const logs = paused ?? live;
  const sources = useMemo(() => [...new Set([...live.map((e) => e.source), ...(source ? [source] : [])])].sort(), [live, source]);
  const shown = useMemo(() => {
    const min = LEVELS.indexOf(level);
    const needle = text.trim().toLowerCase();
    // The text filter finds a line by what it shows (in the UI's language) or by the English the log file keeps.
    const matches = (e: LogEntry) =>
      !needle ||
      e.message.toLowerCase().includes(needle) ||
      (e.problem !== undefined && logMessage(t, e, 'window').toLowerCase().includes(needle));
    return logs.filter((e) => LEVELS.indexOf(e.level) >= min && (!source || e.source === source) && matches(e));
  }, [logs, level, source, text, t]);

  useEffect(() => {
    const onHash = () => setSource(sourceFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const rows = useVirtualizer({
    count: shown.length,
    getScrollElement: () => box.current,
    estimateSize: () => ROW,
    overscan: 12,
    getItemKey: (index) => shown[index]?.seq ?? index,
  });
  useEffect(() => {
    if (follow && shown.length > 0) rows.scrollToIndex(shown.length - 1, { align: 'end' });
  }, [shown.length, follow, rows]);

  const text_ = () => shown.map(logLine).join('\n');
  const copy = () =>
    navigator.clipboard.writeText(text_()).then(
      () => toast(t('logs.copied', { count: shown.length })),
      () => toast(t('logs.copyFailed'), 'error'),
    );
  const save = () => {
    const url = URL.createObjectURL(new Blob([text_() + '\n'], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `xiaozhi-tray-${new Date().toISOString().replace(/[:.]/g, '-')}.log`;
    a.click();
    URL.revokeObjectURL(url);
  };
  const toggle = (seq: number) => {
    const next = new Set(expanded);
    if (next.has(seq)) next.delete(seq);
    else next.add(seq);
    setExpanded(next);
  };

  return (
    <div className="page page-fill">
      <div className="page-header">
        <h1>{t('nav.logs')}</h1>
        {/* What to show, then what to do with it: at 800 px the two wrap as groups, not button by button. */}
        <div className="toolbar">
          <div className="toolbar-group logs-filters">
            <select aria-label={t('logs.source')} value={source} onChange={(e) => setSource(e.target.value)}>
              <option value="">{t('logs.allSources')}</option>
              {sources.map((s) => (
                <option key={s} value={s}>
                  {logSourceLabel(t, s, title)}
                </option>
              ))}
            </select>
            <select aria-label={t('logs.level')} value={level} onChange={(e) => setLevel(e.target.value as LogLevel)}>
              {LEVELS.map((l) => (
                <option key={l} value={l}>
                  {t(`logs.level.${l}`)}
                </option>
              ))}
            </select>
            <input
              type="search"
              aria-label={t('logs.filter')}
              placeholder={t('logs.filter')}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
            <Switch showLabel label={t('logs.wrap')} checked={wrap} onChange={setWrap} />
          </div>
          <div className="toolbar-group logs-actions">
            <Button small onClick={() => setPaused(paused ? undefined : live)}>
              {paused ? t('logs.resume') : t('logs.pause')}
            </Button>
            <Button small onClick={() => void copy()}>
              {t('logs.copy')}
            </Button>
            <Button small onClick={save}>
              {t('logs.save')}
            </Button>
            <Button
              small
              kind="danger"
              onClick={() => {
                store.clearLogs();
                setPaused(undefined);
                setExpanded(new Set());
              }}
            >
              {t('logs.clear')}
            </Button>
          </div>
        </div>
      </div>
      <PagePanels />
      <div
        className={`log-view mono${wrap ? ' wrap' : ''}`}
        ref={box}
        role="log"
        aria-live="off"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          setFollow(el.scrollTop + el.clientHeight >= el.scrollHeight - ROW);
        }}
      >
        {shown.length === 0 && logs.length === 0 ? (
          <EmptyState title={t('logs.empty')}>
            <p className="muted">{t('logs.emptyHint')}</p>
            <a href="#/servers">{t('logs.toServers')}</a>
          </EmptyState>
        ) : shown.length === 0 ? (
          <EmptyState title={t('logs.noMatch')}>
            <Button
              small
              onClick={() => {
                setText('');
                setSource('');
                setLevel('debug');
              }}
            >
              {t('common.clearFilters')}
            </Button>
          </EmptyState>
        ) : null}
        <div style={{ height: rows.getTotalSize(), position: 'relative' }}>
          {rows.getVirtualItems().map((item) => {
            const e = shown[item.index] as LogEntry;
            const open = wrap || expanded.has(e.seq);
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={rows.measureElement}
                className={`log-row log-${e.level}${open ? ' open' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
                title={open ? undefined : t('logs.expand')}
                onClick={() => !wrap && toggle(e.seq)}
                // The keyboard opens a line too: Tab to it, Enter or Space (not needed while every line wraps).
                {...(wrap
                  ? {}
                  : {
                      tabIndex: 0,
                      'aria-expanded': open,
                      onFocus: () => setFollow(false),
                      onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
                        if (event.key !== 'Enter' && event.key !== ' ') return;
                        event.preventDefault();
                        toggle(e.seq);
                      },
                    })}
              >
                <span className="log-time">{formatClock(e.time)}</span>
                <span className="log-level">{t(`logs.levelName.${e.level}`)}</span>
                <span className="log-source" title={logSourceTooltip(t, e.source, title)}>
                  {logSourceLabel(t, e.source, title)}
                </span>
                {/* A server's own words (often English), beside the app's: said to be the server's. */}
                {e.output ? (
                  <span className="log-output" title={t('logs.outputTitle')}>
                    {t('logs.output')}
                  </span>
                ) : null}
                {/* A secret the engine masked reads as the window's marker (（已隐藏）), as on every other page. */}
                <span className="log-message">{shownMasked(logMessage(t, e, 'window'), t)}</span>
              </div>
            );
          })}
        </div>
      </div>
      <div className="small muted">
        {t('logs.count', { shown: shown.length, total: logs.length })}
        {paused ? ` · ${t('logs.paused')}` : ''}
      </div>
    </div>
  );
}
