import { describe, expect, it, vi } from 'vitest';

import { notifyConfirmations } from '../../../src/main/electron/confirm-notifications';
import type { PendingConfirmation } from '../../../src/shared/confirmations';
import { translator } from '../../../src/shared/i18n/translate';
import { FakeNotification } from '../../helpers/electron-mock';

vi.mock('electron', async () => (await import('../../helpers/electron-mock')).electronModule);

/** The bridge's `confirmations` events, played by hand (the bridge's side is tested in window-confirm.test.ts). */
function events() {
  const listeners: ((list: PendingConfirmation[]) => void)[] = [];
  return {
    api: { on: (_event: 'confirmations', listener: (list: PendingConfirmation[]) => void) => (listeners.push(listener), () => undefined) },
    emit: (list: PendingConfirmation[]) => listeners.forEach((listener) => listener(list)),
  } as const;
}

const held = (key: number): PendingConfirmation => ({
  key,
  via: 'pin',
  tool: 'delete_file',
  server: 'files',
  title: 'Delete a file',
  args: [{ name: 'path', value: '/x' }],
  caller: '客厅',
  askedAt: Date.now(),
  expiresAt: Date.now() + 60_000,
});

describe('desktop notifications of calls waiting for the OK', () => {
  it('tells of each held call once; a click opens the window; it goes away once answered', () => {
    FakeNotification.shown.length = 0;
    const { api, emit } = events();
    const open = vi.fn();
    notifyConfirmations(api as never, () => translator('zh-CN'), open);
    emit([held(1)]);
    emit([held(1)]);
    expect(FakeNotification.shown).toHaveLength(1);
    const shown = FakeNotification.shown[0]!;
    expect(shown.options.title).toBe('客厅 请求运行：Delete a file');
    expect(shown.options.body).toMatch(/^请在小智托盘中允许或拒绝（(59|60) 秒内）。$/);
    shown.emit('click');
    expect(open).toHaveBeenCalledTimes(1);
    emit([held(1), held(2)]);
    expect(FakeNotification.shown).toHaveLength(2);
    emit([held(2)]);
    expect(shown.closed).toBe(true);
    expect(FakeNotification.shown[1]!.closed).toBe(false);
  });
});
