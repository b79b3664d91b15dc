// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { MemoryVault } from '../../src/main/core/oauth/token-vault';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { XiaozhiStatus } from '../../src/renderer/pages/xiaozhi-status';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { type OAuthStandIn, type OAuthStandInOptions, startOAuthStandIn } from '../helpers/oauth-stand-in';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

let harness: Harness | undefined;
let standIn: OAuthStandIn | undefined;
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await harness?.bridge.stop();
  await standIn?.close();
  harness = undefined;
  standIn = undefined;
});

const supervision = { restartBaseMs: 50, restartMaxMs: 100, healthIntervalMs: 0, startTimeoutMs: 10_000, stopGraceMs: 500 };

async function cardOf(env: NodeJS.ProcessEnv, language: 'en' | 'zh-CN', options: OAuthStandInOptions = {}) {
  standIn = await startOAuthStandIn(options);
  harness = makeBridge({ servers: [{ name: 'cloud', transport: 'streamable-http', url: standIn.url }] }, supervision, {
    env: { ...process.env, ...env },
    oauthVault: new MemoryVault(),
  });
  harness.bridge.start();
  return renderWithBridge(harness, <ServersPage />, language);
}

describe('the Sign in button of a server that needs sign-in', () => {
  it('says it needs sign-in, and signing in (the app opens the page) connects it', async () => {
    const { store } = await cardOf({ XIAOZHI_TRAY_OAUTH_OPEN: 'fetch' }, 'en');
    expect(await screen.findByText('Needs sign-in')).toBeTruthy();
    expect(screen.getByText('This server needs you to sign in.')).toBeTruthy();
    expect(screen.queryByText('Try again')).toBeNull();
    // A step to take, not a breakdown: amber like a restart, not red like a failure.
    expect(screen.getByText('Needs sign-in').closest('.badge')?.className).toContain('badge-warn');
    expect(screen.getByText('This server needs you to sign in.').className).toBe('warn-text');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('running'), { timeout: scaled(10_000) });
  });

  it('in the web UI (nobody opened the page) opens it in a new tab and keeps a link to it, in Chinese', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    await cardOf({ XIAOZHI_TRAY_OAUTH_OPEN: '' }, 'zh-CN');
    expect(await screen.findByText('需要登录')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    const link = (await screen.findByText('打开登录页面')).closest('a')!;
    expect(link.href).toMatch(new RegExp(`^${standIn!.base.replace(/[.]/g, '\\.')}/authorize\\?`));
    expect(link.rel).toContain('noopener');
    expect(open).toHaveBeenCalledWith(link.href, '_blank', 'noopener,noreferrer');
  });

  it("a sign-in that cannot start says why on the card, in the reader's language, with what to do about that reason", async () => {
    const { toasts } = await cardOf({ XIAOZHI_TRAY_OAUTH_OPEN: 'fetch' }, 'zh-CN', { noRegistration: true });
    fireEvent.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByText('登录失败：登录服务器不允许应用自行注册。', undefined, { timeout: scaled(10_000) })).toBeTruthy();
    expect(toasts).toEqual([]);
    expect(screen.getByText(/在配置文件中为该服务设置 oauth\.clientId/)).toBeTruthy();
    expect(screen.queryByText(/noRegistration|timeout：/)).toBeNull();
  });

  it('the overview names it as needing sign-in (linked to its card), not as failed, in Chinese', async () => {
    standIn = await startOAuthStandIn();
    harness = makeBridge({ servers: [{ name: 'cloud', transport: 'streamable-http', url: standIn.url }] }, supervision, {
      env: { ...process.env, XIAOZHI_TRAY_OAUTH_OPEN: '' },
      oauthVault: new MemoryVault(),
    });
    harness.bridge.start();
    await waitFor(async () => expect((await harness!.bridge.api.getState()).servers[0]?.lastErrorCause?.code).toBe('server.needsSignIn'), {
      timeout: scaled(10_000),
    });
    await renderWithBridge(harness, <XiaozhiStatus state={await harness.bridge.api.getState()} />, 'zh-CN');
    expect((await screen.findByRole('link', { name: 'cloud' })).getAttribute('href')).toBe('#/servers?server=cloud');
    expect(screen.getByText(/需要登录：/).className).toBe('warn-text');
    expect(screen.queryByText(/失败/)).toBeNull();
  });
});
