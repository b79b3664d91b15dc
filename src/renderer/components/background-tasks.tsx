import { useEffect, useState } from 'react';

import type { BackgroundTask } from '../../shared/status';
import { useApp } from '../app-context';
import { Button, StatusBadge, type Tone } from './ui';
import { useNow } from './use-now';

const TONES: Record<BackgroundTask['state'], Tone> = { running: 'busy', done: 'ok', failed: 'bad', cancelled: 'off' };

/**
 * How long a finished call stays on the card: long enough to be seen, not minutes after (walkthrough 4
 * saw 已在后台完成 until a restart). The bridge keeps it longer, for xiaozhi to ask after by voice.
 */
export const FINISHED_SHOWN_MS = 60_000;

/** What the list holds after an event: the task replaced (or added), or taken out when it left. */
export function withTask(tasks: BackgroundTask[], task: BackgroundTask): BackgroundTask[] {
  const others = tasks.filter((t) => t.key !== task.key);
  return task.removed ? others : [task, ...others].sort((a, b) => b.startedAt - a.startedAt);
}

/**
 * Long calls: those running past a moment (with the progress their server reports) and those
 * answered before they finished, with their result once they have one. Nothing shows when there
 * are none.
 */
export function BackgroundTasks() {
  const { store, t } = useApp();
  const [tasks, setTasks] = useState<BackgroundTask[]>([]);
  const now = useNow();
  useEffect(() => {
    let live = true;
    const off = store.api.on('task', (task) => setTasks((current) => withTask(current, task)));
    void store.api.getTasks().then((list) => {
      if (live) setTasks((current) => list.reduce(withTask, current));
    });
    return () => {
      live = false;
      off();
    };
  }, [store]);
  const shown = tasks.filter((task) => task.state === 'running' || now - (task.finishedAt ?? now) < FINISHED_SHOWN_MS);
  if (shown.length === 0) return null;
  return (
    <section className="card background-tasks" aria-label={t('tasks.title')}>
      <h2>{t('tasks.title')}</h2>
      <ul>
        {shown.map((task) => (
          <li key={task.key} data-task={task.id ?? ''}>
            {/* Its short id is for xiaozhi asking after it by voice, not a word a person knows. */}
            <span className="mono">{task.tool}</span>
            <span className="small muted"> · {task.caller}</span>{' '}
            <StatusBadge tone={TONES[task.state]}>
              {task.state === 'running'
                ? t('tasks.running', { seconds: Math.max(0, Math.round((now - task.startedAt) / 1000)) })
                : t(`tasks.${task.state}`)}
            </StatusBadge>
            {task.state === 'running' && task.progress ? (
              <div className="small">
                {task.progress.total ? <progress value={task.progress.progress} max={task.progress.total} /> : null}{' '}
                {task.progress.message ?? ''}
              </div>
            ) : null}
            {task.state === 'running' ? (
              <Button small kind="ghost" onClick={() => void store.api.cancelTask({ key: task.key })}>
                {t('tasks.cancel')}
              </Button>
            ) : null}
            {/* The server's text, often English ("Successfully wrote to …"): marked as its words, not the app's. */}
            {task.result !== undefined ? (
              <>
                <div className="small muted">{t('history.ownWords')}</div>
                <pre className="mono small">{task.result}</pre>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
