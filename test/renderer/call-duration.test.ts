import { describe, expect, it } from 'vitest';

import { callDuration, formatDuration } from '../../src/renderer/format';
import { translator } from '../../src/shared/i18n/translate';

describe('how long a recorded call took, as History and the overview show it', () => {
  it('shows no time for a call that never ran (before: "0.00 ms" for an expired confirmation)', () => {
    for (const state of ['waiting', 'denied', 'expired', 'withdrawn'] as const) {
      expect(callDuration({ durationMs: 0, confirmation: { state } }, translator('en'))).toBe('');
    }
    expect(callDuration({ durationMs: 0.4 }, translator('en'))).toBe('<1 ms');
    expect(callDuration({ durationMs: 1500, confirmation: { state: 'allowed' } }, translator('en'))).toBe('1.5 s');
  });

  it('says a duration in plain units of the window\'s language: seconds once it is a tenth of one, never "ms" in Chinese', () => {
    const zh = translator('zh-CN');
    // The endpoint test's "用时 367 ms" (issue 33), and Activity's typical and slow times.
    expect(formatDuration(367, zh)).toBe('0.4 秒');
    expect(formatDuration(22, zh)).toBe('22 毫秒');
    expect(formatDuration(0.3, zh)).toBe('不到 1 毫秒');
    expect(formatDuration(1500, zh)).toBe('1.5 秒');
    expect(formatDuration(12_345, zh)).toBe('12 秒');
    expect(formatDuration(95_000, zh)).toBe('1 分 35 秒');
    for (const ms of [0.3, 22, 367, 1500, 12_345, 95_000]) expect(formatDuration(ms, zh)).not.toMatch(/ms|\bs\b/);
    const en = translator('en');
    expect(formatDuration(367, en)).toBe('0.4 s');
    expect(formatDuration(22, en)).toBe('22 ms');
    expect(formatDuration(95_000, en)).toBe('1 min 35 s');
  });

  it('says an allowed call runs in the background, without a task id a person does not know', () => {
    const zh = translator('zh-CN');
    expect(zh('confirm.allowed', { id: '8P' })).toBe('已允许，正在后台运行。');
    expect(zh('tasks.done')).toBe('已在后台完成');
    expect(translator('en')('confirm.allowed', { id: '8P' })).not.toContain('8P');
  });
});
