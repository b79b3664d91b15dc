import { describe, expect, it } from 'vitest';

import { callDuration } from '../../src/renderer/format';
import { translator } from '../../src/shared/i18n/translate';

describe('how long a recorded call took, as History and the overview show it', () => {
  it('shows no time for a call that never ran (before: "0.00 ms" for an expired confirmation)', () => {
    for (const state of ['waiting', 'denied', 'expired', 'withdrawn'] as const) {
      expect(callDuration({ durationMs: 0, confirmation: { state } })).toBe('');
    }
    expect(callDuration({ durationMs: 0.4 })).toBe('<1 ms');
    expect(callDuration({ durationMs: 1500, confirmation: { state: 'allowed' } })).toBe('1.50 s');
  });

  it('says an allowed call runs in the background, without a task id a person does not know', () => {
    const zh = translator('zh-CN');
    expect(zh('confirm.allowed', { id: '8P' })).toBe('已允许，正在后台运行。');
    expect(zh('tasks.done')).toBe('已在后台完成');
    expect(translator('en')('confirm.allowed', { id: '8P' })).not.toContain('8P');
  });
});
