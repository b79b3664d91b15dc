import { describe, expect, it, vi } from 'vitest';

import { notifyFinishedTasks } from '../../../src/main/electron/task-notifications';
import { translator } from '../../../src/shared/i18n/translate';
import type { BackgroundTask } from '../../../src/shared/status';
import { FakeNotification } from '../../helpers/electron-mock';

vi.mock('electron', async () => (await import('../../helpers/electron-mock')).electronModule);

/** The bridge's `task` events, played by hand (the bridge's side is tested in long-calls.test.ts). */
function events() {
  const listeners: ((task: BackgroundTask) => void)[] = [];
  return {
    api: { on: (_event: 'task', listener: (task: BackgroundTask) => void) => (listeners.push(listener), () => undefined) },
    emit: (task: BackgroundTask) => listeners.forEach((listener) => listener(task)),
  } as const;
}

const base: BackgroundTask = { key: 1, tool: 'deep_search', caller: 'home', state: 'running', startedAt: 0 };

describe('desktop notifications of long calls', () => {
  it('tells of a task that finished in the background, with its result, and opens the window on a click', () => {
    FakeNotification.shown.length = 0;
    const { api, emit } = events();
    const open = vi.fn();
    notifyFinishedTasks(api as never, () => translator('zh-CN'), open);
    emit({ ...base, progress: { progress: 1 } });
    emit({ ...base, id: '3F' });
    // Finished within its caller's patience: answered as usual, no notification.
    emit({ ...base, state: 'done', result: 'in time', removed: true });
    expect(FakeNotification.shown).toHaveLength(0);
    emit({ ...base, id: '3F', state: 'done', result: `三篇资料一致。${'长'.repeat(400)}` });
    expect(FakeNotification.shown).toHaveLength(1);
    const shown = FakeNotification.shown[0]!;
    expect(shown.options.title).toBe('deep_search 已在后台完成');
    expect(shown.options.body?.startsWith('三篇资料一致。')).toBe(true);
    expect(shown.options.body?.length).toBeLessThanOrEqual(241);
    shown.emit('click');
    expect(open).toHaveBeenCalledTimes(1);
  });
});
