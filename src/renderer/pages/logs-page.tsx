import { useEffect, useMemo, useRef, useState } from 'react';
import type { LogEntry, LogLevel } from '../../shared/status';
import { useApp } from '../app-context';
import { Button } from '../components/ui';
import { formatClock } from '../format';
import { useStore } from '../store/bridge-store';

const ROW = 22;
const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

export function logLine(e: LogEntry): string {
  return `${new Date(e.time).toISOString()} ${e.level.toUpperCase().padEnd(5)} [${e.source}] ${e.message}`;
}

/** Live logs. Only the visible rows are rendered, so 10,000 lines scroll smoothly. */
export function LogsPage() {
  const { store, t, toast } = useApp();
  const live = useStore(store, (d) => d.logs);
  const [paused, setPaused] = useState<LogEntry[] | undefined>();
  const [source, setSource] = useState('');
  const [level, setLevel] = useState<LogLevel>('info');
  const [text, setText] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const [follow, setFollow] = useState(true);
  const box = useRef<HTMLDivElement>(null);
  const logs = paused ?? live;
  const sources = useMemo(() => [...new Set(live.map((e) => e.source))].sort(), [live]);
  const shown = useMemo(() => {
    const min = LEVELS.indexOf(level);
    const needle = text.trim().toLowerCase();
    return logs.filter((e) => LEVELS.indexOf(e.level) >= min && (!source || e.source === source) && (!needle || e.message.toLowerCase().includes(needle)));
  }, [logs, level, source, text]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [shown.length, follow]);

  const first = Math.max(0, Math.floor(scrollTop / ROW) - 10);
  const last = Math.min(shown.length, Math.ceil((scrollTop + height) / ROW) + 10);
  const text_ = () => shown.map(logLine).join('\n');
  const copy = () => navigator.clipboard.writeText(text_()).then(() => toast(t('logs.copied', { count: shown.length })), () => toast(t('logs.copyFailed'), 'error'));
  const save = () => {
    const url = URL.createObjectURL(new Blob([text_() + '\n'], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `xiaozhi-tray-${new Date().toISOString().replace(/[:.]/g, '-')}.log`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="page page-fill">
      <div className="page-header">
        <h1>{t('nav.logs')}</h1>
        <div className="toolbar">
          <select aria-label={t('logs.source')} value={source} onChange={(e) => setSource(e.target.value)}>
            <option value="">{t('logs.allSources')}</option>
            {sources.map((s) => (
              <option key={s} value={s}>
                {s}
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
          <input type="search" aria-label={t('logs.filter')} placeholder={t('logs.filter')} value={text} onChange={(e) => setText(e.target.value)} />
          <Button small onClick={() => setPaused(paused ? undefined : live)}>
            {paused ? t('logs.resume') : t('logs.pause')}
          </Button>
          <Button small onClick={() => void copy()}>
            {t('logs.copy')}
          </Button>
          <Button small onClick={save}>
            {t('logs.save')}
          </Button>
        </div>
      </div>
      <div
        className="log-view mono"
        ref={box}
        role="log"
        aria-live="off"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          setScrollTop(el.scrollTop);
          setFollow(el.scrollTop + el.clientHeight >= el.scrollHeight - ROW);
        }}
      >
        <div style={{ height: shown.length * ROW, position: 'relative' }}>
          {shown.slice(first, last).map((e, i) => (
            <div key={e.seq} className={`log-row log-${e.level}`} style={{ top: (first + i) * ROW, height: ROW }}>
              <span className="log-time">{formatClock(e.time)}</span>
              <span className="log-level">{e.level}</span>
              <span className="log-source">{e.source}</span>
              <span className="log-message">{e.message}</span>
            </div>
          ))}
        </div>
      </div>
      <div className="small muted">{t('logs.count', { shown: shown.length, total: logs.length })}{paused ? ` · ${t('logs.paused')}` : ''}</div>
    </div>
  );
}
