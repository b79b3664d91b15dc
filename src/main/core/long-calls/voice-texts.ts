import { type Language, translate } from '../../../shared/i18n/translate';
import type { BackgroundTask } from '../../../shared/status';

/** A tool's name as a voice says it: `deep_search` → "deep search". */
export function spokenTool(tool: string): string {
  return tool.replace(/[_-]+/g, ' ').trim() || tool;
}

export function stillWorkingText(language: Language, tool: string, id: string): string {
  return translate(language, 'voice.task.stillWorking', { tool: spokenTool(tool), id });
}

/** One task as the model is told of it: its state, and its result once it has one. */
export function taskText(language: Language, task: BackgroundTask, now: number): string {
  const params = { id: task.id ?? '?', tool: spokenTool(task.tool) };
  switch (task.state) {
    case 'done':
      return translate(language, 'voice.task.done', { ...params, result: task.result ?? '' });
    case 'failed':
      return translate(language, 'voice.task.failed', { ...params, result: task.result ?? '' });
    case 'cancelled':
      return translate(language, 'voice.task.cancelled', params);
    case 'running': {
      const seconds = Math.max(0, Math.round((now - task.startedAt) / 1000));
      const progress = progressText(task.progress);
      return progress
        ? translate(language, 'voice.task.runningProgress', { ...params, seconds, progress })
        : translate(language, 'voice.task.running', { ...params, seconds });
    }
  }
}

/** Tasks named in one spoken list: more would be a long recital, not an answer. */
export const SPOKEN_TASKS = 5;

/**
 * Without an id: what runs and what finished, by id and tool, the few newest (`tasks` comes newest
 * first), then how many more. A call listed only for its progress (no id yet) cannot be asked about: left out.
 */
export function taskListText(language: Language, tasks: BackgroundTask[]): string {
  const withId = tasks.filter((task) => task.id !== undefined);
  const spoken = withId.slice(0, SPOKEN_TASKS);
  const named = (task: BackgroundTask): string => `${task.id} ${spokenTool(task.tool)}`;
  const running = spoken.filter((task) => task.state === 'running').map(named);
  const finished = spoken.filter((task) => task.state !== 'running').map(named);
  if (running.length === 0 && finished.length === 0) return translate(language, 'voice.task.none');
  const parts: string[] = [];
  const separator = language === 'zh-CN' ? '、' : ', ';
  if (running.length > 0) parts.push(translate(language, 'voice.task.listRunning', { tasks: running.join(separator) }));
  if (finished.length > 0) parts.push(translate(language, 'voice.task.listFinished', { tasks: finished.join(separator) }));
  if (withId.length > spoken.length) parts.push(translate(language, 'voice.task.listMore', { count: withId.length - spoken.length }));
  return parts.join(' ');
}

/** A server's progress as words: its message, else "2/5" or "2". */
export function progressText(progress: BackgroundTask['progress']): string | undefined {
  if (!progress) return undefined;
  if (progress.message) return progress.message;
  return progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
}
