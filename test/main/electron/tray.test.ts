import { describe, expect, it, vi } from 'vitest';

import { translator } from '../../../src/shared/i18n/translate';
import type { BridgeState } from '../../../src/shared/status';

vi.mock('electron', async () => (await import('../../helpers/electron-mock')).electronModule);
const { FakeTray } = await import('../../helpers/electron-mock');
const { TrayController, trayIconPath, toElectronMenu } = await import('../../../src/main/electron/tray-icon');
const { trayIconState, trayMenu, trayTooltip } = await import('../../../src/main/electron/tray-status');

const en = translator('en');
const zh = translator('zh-CN');

function state(partial: Partial<BridgeState> = {}): BridgeState {
  return { running: true, endpoints: [], servers: [], catalog: { toolCount: 0, bytes: 0, pages: 1 }, ...partial };
}
const endpoint = (name: string, s: BridgeState['endpoints'][number]['state'], extra: Partial<BridgeState['endpoints'][number]> = {}) => ({
  id: name,
  name,
  url: 'wss://x/?token=…',
  enabled: true,
  state: s,
  since: 0,
  attempts: 0,
  ...extra,
});
const server = (name: string, s: BridgeState['servers'][number]['state']) => ({
  name,
  transport: 'stdio' as const,
  enabled: true,
  state: s,
  since: 0,
  toolCount: 3,
  restarts: 0,
  stderrTail: [],
});

describe('tray status mapping', () => {
  it('maps every bridge state to its icon', () => {
    expect(trayIconState(state({ running: false, endpoints: [endpoint('a', 'connected')] }))).toBe('stopped');
    expect(trayIconState(state())).toBe('stopped');
    expect(trayIconState(state({ endpoints: [endpoint('a', 'connected'), endpoint('b', 'connected')] }))).toBe('connected');
    expect(trayIconState(state({ endpoints: [endpoint('a', 'connected'), endpoint('b', 'waiting', { attempts: 9 })] }))).toBe('partial');
    expect(trayIconState(state({ endpoints: [endpoint('a', 'connecting')] }))).toBe('connecting');
    expect(trayIconState(state({ endpoints: [endpoint('a', 'waiting', { attempts: 1 })] }))).toBe('connecting');
    expect(trayIconState(state({ endpoints: [endpoint('a', 'waiting', { attempts: 5 })] }))).toBe('error');
    expect(trayIconState(state({ endpoints: [endpoint('a', 'connected')], servers: [server('s', 'failed')] }))).toBe('error');
    // A disabled endpoint does not count.
    expect(trayIconState(state({ endpoints: [endpoint('a', 'connected'), { ...endpoint('b', 'disabled'), enabled: false }] }))).toBe(
      'connected',
    );
  });

  it('summarises in the tooltip, in both languages', () => {
    const s = state({
      endpoints: [endpoint('a', 'connected'), endpoint('b', 'waiting')],
      servers: [server('x', 'running'), server('y', 'running'), server('z', 'failed')],
      catalog: { toolCount: 27, bytes: 1, pages: 1 },
    });
    // The worst news first: the same summary the window's sidebar shows.
    expect(trayTooltip(s, en)).toBe('Xiaozhi Tray · 1 server failed · 1/2 endpoints connected');
    expect(trayTooltip(s, zh)).toBe('小智托盘 · 1 个服务失败 · 1/2 个接入点已连接');
    expect(trayTooltip(state({ running: false }), zh)).toBe('小智托盘 · 已停止');
  });

  it('names a server that tries again by itself as the window does (正在重试), apart from one that gave up', () => {
    const s = state({ endpoints: [endpoint('a', 'connected')], servers: [server('x', 'restarting'), server('z', 'failed')] });
    const labels = (t: typeof en) => trayMenu(s, true, t).flatMap((i) => ('label' in i ? [i.label] : []));
    expect(labels(zh)).toEqual(expect.arrayContaining(['1 个服务失败', '1 个服务正在重试']));
    expect(labels(en)).toEqual(expect.arrayContaining(['1 server failed', '1 server is retrying']));
  });

  it('says a server waits for a sign-in apart from the failed ones: amber icon, its own line, both languages', () => {
    const cloud = {
      ...server('cloud', 'failed'),
      transport: 'streamable-http' as const,
      lastErrorCause: { code: 'server.needsSignIn' as const, params: { server: 'cloud' } },
    };
    const s = state({ endpoints: [endpoint('a', 'connected')], servers: [server('x', 'running'), cloud] });
    expect(trayIconState(s)).toBe('partial');
    expect(trayTooltip(s, en)).toBe('Xiaozhi Tray · 1 server needs you to sign in · 1/1 endpoints connected');
    expect(trayTooltip(s, zh)).toBe('小智托盘 · 1 个服务需要你登录 · 1/1 个接入点已连接');
    const labels = (t: typeof en) => trayMenu(s, true, t).map((i) => ('label' in i ? i.label : '—'));
    expect(labels(en)).toContain('1 server needs you to sign in');
    expect(labels(en)).not.toContain('1 server failed');
    expect(labels(zh)).toContain('1 个服务需要你登录');
  });

  it('builds the menu: a line per endpoint, start/stop, open, login item, logs, quit', () => {
    const now = Date.now();
    const items = trayMenu(
      state({
        endpoints: [endpoint('家里', 'connected'), endpoint('office', 'waiting', { retryAt: now + 4200 })],
        servers: [server('z', 'failed')],
      }),
      true,
      en,
    );
    const labels = items.map((i) => ('label' in i ? i.label : '—'));
    expect(labels).toEqual([
      '家里: connected',
      'office: retrying in 5 s',
      '1 server failed',
      '—',
      'Stop',
      'Open Xiaozhi Tray',
      '—',
      'Launch at login',
      'Open logs folder',
      '—',
      'Quit',
    ]);
    expect(items.find((i) => i.kind === 'checkbox')).toMatchObject({ checked: true, enabled: true });
    const stopped = trayMenu(state({ running: false }), null, zh);
    expect(stopped.map((i) => ('label' in i ? i.label : '—'))).toContain('启动');
    expect(stopped.find((i) => i.kind === 'checkbox')).toMatchObject({ enabled: false });
  });

  it('says which tool set each endpoint serves', () => {
    const sets = [
      { id: 'all', name: 'all', toolCount: 9, bytes: 1, pages: 1 },
      { id: 'kitchen', name: '厨房', toolCount: 2, bytes: 1, pages: 1 },
    ];
    const s = state({
      endpoints: [endpoint('speaker', 'connected', { toolSet: 'kitchen' }), endpoint('desk', 'disconnected', { toolSet: 'all' })],
      toolSets: sets,
    });
    expect(
      trayMenu(s, null, en)
        .slice(0, 2)
        .map((i) => ('label' in i ? i.label : '')),
    ).toEqual(['speaker: connected · tools: 厨房', 'desk: disconnected · tools: All tools']);
    expect(
      trayMenu(s, null, zh)
        .slice(0, 2)
        .map((i) => ('label' in i ? i.label : '')),
    ).toEqual(['speaker：已连接 · 工具集：厨房', 'desk：未连接 · 工具集：全部工具']);
  });

  it('counts a server waiting for uv apart from the failed ones, in amber (issue 33: it said "1 server failed")', () => {
    const waits = {
      ...server('time', 'failed'),
      lastErrorCause: { code: 'server.runtimeMissing', params: { command: 'uvx', runtime: 'uv', install: 'pip install uv' } },
    };
    const s = state({ endpoints: [endpoint('speaker', 'connected')], servers: [server('fs', 'running'), waits] });
    const labels = (t: typeof en) => trayMenu(s, null, t).map((i) => ('label' in i ? i.label : '—'));
    expect(labels(zh)).toContain('1 个服务等待你下载 uv');
    expect(labels(zh).join('\n')).not.toContain('失败');
    expect(labels(en)).toContain('1 server waits for you to download uv');
    expect(trayIconState(s)).toBe('partial');
    expect(trayTooltip(s, zh)).toContain('1 个服务等待你下载 uv');
  });
});

describe('tray controller', () => {
  const actions = () => ({
    start: vi.fn(),
    stop: vi.fn(),
    open: vi.fn(),
    openLogs: vi.fn(),
    quit: vi.fn(),
    setLaunchAtLogin: vi.fn(),
    importFiles: vi.fn(),
    checkUpdates: vi.fn(),
    installUpdate: vi.fn(),
    openUpdatePage: vi.fn(),
  });

  it('uses template images on macOS and coloured ones elsewhere', () => {
    expect(trayIconPath('/a', 'partial', 'darwin')).toBe('/a/tray/partialTemplate.png');
    expect(trayIconPath('/a', 'partial', 'linux')).toBe('/a/tray/partial.png');
  });

  it('follows status changes and rebuilds the menu only when it changed', () => {
    const acts = actions();
    const controller = new TrayController('/assets', 'linux', acts, en, () => false);
    const tray = FakeTray.instances.at(-1)!;
    const connected = state({ endpoints: [endpoint('a', 'connected')] });
    controller.update(connected);
    expect((tray.image as { path: string }).path).toBe('/assets/tray/connected.png');
    expect(tray.tooltip).toContain('1/1 endpoints connected');
    const builds = tray.menuBuilds;
    controller.update(connected);
    expect(tray.menuBuilds).toBe(builds);
    controller.update(state({ running: false, endpoints: [endpoint('a', 'disconnected')] }));
    expect((tray.image as { path: string }).path).toBe('/assets/tray/stopped.png');
    expect(tray.menuBuilds).toBe(builds + 1);
    // Clicking the icon opens the window on Windows and Linux.
    tray.emit('click');
    expect(acts.open).toHaveBeenCalled();
    tray.emit('drop-files', {}, ['/tmp/claude_desktop_config.json']);
    expect(acts.importFiles).toHaveBeenCalledWith(['/tmp/claude_desktop_config.json']);
  });

  it('on macOS shows the menu on click and marks images as templates', () => {
    const acts = actions();
    const controller = new TrayController('/assets', 'darwin', acts, en, () => false);
    const tray = FakeTray.instances.at(-1)!;
    controller.update(state({ endpoints: [endpoint('a', 'connecting')] }));
    expect(tray.image).toMatchObject({ path: '/assets/tray/connectingTemplate.png', template: true });
    tray.emit('click');
    expect(acts.open).not.toHaveBeenCalled();
  });

  it('wires menu items to actions', () => {
    const acts = actions();
    const template = toElectronMenu(trayMenu(state(), false, en), acts);
    const click = (label: string) =>
      (template.find((i) => i.label === label)?.click as (item: { checked: boolean }) => void)({ checked: true });
    click('Stop');
    click('Quit');
    click('Launch at login');
    expect(acts.stop).toHaveBeenCalled();
    expect(acts.quit).toHaveBeenCalled();
    expect(acts.setLaunchAtLogin).toHaveBeenCalledWith(true);
  });
});
