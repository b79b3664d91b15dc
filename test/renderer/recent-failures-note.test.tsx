// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { AppContext } from '../../src/renderer/app-context';
import { RecentFailures } from '../../src/renderer/components/recent-failures';
import type { ActivitySample } from '../../src/shared/activity';
import { translator } from '../../src/shared/i18n/translate';

afterEach(cleanup);

const now = Date.UTC(2026, 11, 7, 14, 0);
const calls = (ok: number, failed: number): ActivitySample[] =>
  Array.from({ length: ok + failed }, (_, i) => ({
    time: now - (i + 1) * 60_000,
    tool: 'edit_file',
    server: 'files',
    caller: 'speaker',
    outcome: i < ok ? 'ok' : 'error',
    durationMs: 5,
  }));

function renderNote(samples: ActivitySample[]) {
  const value = { t: translator('zh-CN'), language: 'zh-CN' } as unknown as React.ContextType<typeof AppContext>;
  return render(
    <AppContext.Provider value={value}>
      <RecentFailures samples={samples} now={now} />
    </AppContext.Provider>,
  );
}

describe('the overview when many recent calls failed (issue 33)', () => {
  it('says so calmly, with a link to the failed calls', () => {
    const { container } = renderNote(calls(7, 5));
    const note = container.querySelector('.recent-failures') as HTMLElement;
    expect(note.className).toContain('notice-warn');
    expect(note.textContent).toBe('最近一小时的 12 次调用中，有 5 次没有成功。 查看没成功的调用');
    expect(note.querySelector('a')?.getAttribute('href')).toBe('#/history?failed');
  });

  it('says nothing for a single failure', () => {
    const { container } = renderNote(calls(3, 1));
    expect(container.querySelector('.recent-failures')).toBeNull();
  });
});
