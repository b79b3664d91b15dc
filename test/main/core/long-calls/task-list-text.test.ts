import { describe, expect, it } from 'vitest';

import { SPOKEN_TASKS, taskListText } from '../../../../src/main/core/long-calls/voice-texts';
import type { BackgroundTask } from '../../../../src/shared/status';

// Before: after a flood of 34 calls, task_status without an id read out ~34 tasks in one
// sentence, two of them "? slow report" (calls listed for their progress, never given an id).
const task = (n: number, extra: Partial<BackgroundTask> = {}): BackgroundTask => ({
  key: n,
  id: `${2 + (n % 8)}${'ABCDEFGHJKLMNPQRSTUVWXYZ'[Math.floor(n / 8)]}`,
  tool: 'slow_report',
  caller: 'speaker',
  state: 'running',
  startedAt: 1000 - n,
  ...extra,
});

describe('the task list as the voice says it', () => {
  it(`names at most ${SPOKEN_TASKS} tasks, newest first, then how many more; none without an id`, () => {
    const { id: _none, ...noId } = task(0);
    const tasks: BackgroundTask[] = [noId, ...Array.from({ length: 33 }, (_, i) => task(i + 1))];
    const text = taskListText('en', tasks);
    expect(text).toBe('Still running: 3A slow report, 4A slow report, 5A slow report, 6A slow report, 7A slow report. And 28 more.');
    expect(text).not.toContain('?');
    expect(taskListText('zh-CN', tasks)).toMatch(/另外还有 28 个。$/);
  });

  it('a short list is said whole', () => {
    expect(taskListText('en', [task(1), task(2, { state: 'done', finishedAt: 5 })])).toBe(
      'Still running: 3A slow report. Finished: 4A slow report. Ask with the id for a result.',
    );
  });
});
