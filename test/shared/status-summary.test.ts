import { describe, expect, it } from 'vitest';

import { translate, translator } from '../../src/shared/i18n/translate';
import { problemMessage } from '../../src/shared/problem-words';
import type { BridgeState } from '../../src/shared/status';
import { summarizeStatus, userToolCount } from '../../src/shared/status-summary';

const state = (partial: Partial<BridgeState> = {}): BridgeState => ({
  running: true,
  endpoints: [],
  servers: [],
  catalog: { toolCount: 4, bytes: 1, pages: 1 },
  ...partial,
});
const endpoint = (s: BridgeState['endpoints'][number]['state'], attempts = 0) => ({
  id: 'e',
  name: 'home',
  url: 'wss://x',
  enabled: true,
  state: s,
  since: 0,
  attempts,
});
const server = (s: BridgeState['servers'][number]['state']) => ({
  name: 'py',
  transport: 'stdio' as const,
  enabled: true,
  state: s,
  since: 0,
  toolCount: 0,
  restarts: 2,
  stderrTail: [],
});
const en = translator('en');

describe('one truthful status summary (sidebar, overview, tray)', () => {
  it('is not green while a server crash-loops, even with every endpoint connected', () => {
    const s = summarizeStatus(state({ endpoints: [endpoint('connected')], servers: [server('restarting')] }));
    // Not green, and not an alarm either: it tries again by itself (issue 33: "a calm word while it is retrying").
    expect(s.tone).toBe('busy');
    expect(en(s.headline.key, s.headline.params)).toBe('1 server is retrying');
    expect(s.lines.map((l) => en(l.key, l.params))).toContain('1/1 endpoints connected');
  });

  it('says it cannot reach xiaozhi after repeated refusals, not "Connecting"', () => {
    const s = summarizeStatus(state({ endpoints: [endpoint('waiting', 10)] }));
    expect(s).toMatchObject({ tone: 'bad', icon: 'error' });
    expect(en(s.headline.key, s.headline.params)).toBe('Cannot reach xiaozhi (10 failed tries)');
  });

  it('says "retrying", as the endpoint card does, while an endpoint waits to retry', () => {
    const s = summarizeStatus(state({ endpoints: [endpoint('waiting', 1)] }));
    expect(en(s.headline.key, s.headline.params)).toBe('Retrying to connect (attempt 1)');
    expect(s.icon).toBe('connecting');
  });

  it('says a server waits for a sign-in, not that it failed (amber, not red), and still puts a real failure first', () => {
    const needsSignIn = {
      ...server('failed'),
      name: 'cloud',
      transport: 'streamable-http' as const,
      lastErrorCause: { code: 'server.signInAgain' as const, params: { server: 'cloud' } },
    };
    const s = summarizeStatus(state({ endpoints: [endpoint('connected')], servers: [server('running'), needsSignIn] }));
    expect(s).toMatchObject({ tone: 'warn', icon: 'partial' });
    expect(en(s.headline.key, s.headline.params)).toBe('1 server needs you to sign in');
    expect(translate('zh-CN', s.headline.key, s.headline.params)).toBe('1 个服务需要你登录');
    const both = summarizeStatus(state({ endpoints: [endpoint('connected')], servers: [server('failed'), needsSignIn] }));
    expect(both.tone).toBe('bad');
    expect(en(both.headline.key, both.headline.params)).toBe('1 server failed');
  });

  it('says a server waits for its runtime (uv) to be downloaded, not that it failed, for each code its card offers Download uv', () => {
    for (const code of ['server.runtimeMissing', 'server.runtimeDownloadFailed', 'server.runtimeMismatch'] as const) {
      const waits = { ...server('failed'), name: 'time', lastErrorCause: { code, params: { runtime: 'uv', command: 'uvx' } } };
      const s = summarizeStatus(state({ endpoints: [endpoint('connected')], servers: [server('running'), waits] }));
      expect(s).toMatchObject({ tone: 'warn', icon: 'partial' });
      expect(translate('zh-CN', s.headline.key, s.headline.params)).toBe('1 个服务等待你下载 uv');
      expect(en(s.headline.key, s.headline.params)).toBe('1 server waits for you to download uv');
      const both = summarizeStatus(state({ endpoints: [endpoint('connected')], servers: [server('failed'), waits] }));
      expect(en(both.headline.key, both.headline.params)).toBe('1 server failed');
    }
  });

  it('says a token refused for good as that, from the first refusal (not "connecting", not "retrying")', () => {
    const refused = { ...endpoint('waiting', 1), lastErrorCause: { code: 'endpoint.tokenRejected', params: { code: 1008 } } };
    const s = summarizeStatus(state({ endpoints: [refused] }));
    expect(s).toMatchObject({ tone: 'bad', icon: 'error' });
    expect(translate('zh-CN', s.headline.key, s.headline.params)).toBe('小智拒绝了接入点地址中的令牌');
    const http401 = { ...endpoint('waiting', 15), lastErrorCause: { code: 'http.unauthorized', params: { status: 401 } } };
    expect(en(summarizeStatus(state({ endpoints: [http401] })).headline.key)).toBe('xiaozhi refused the token in the endpoint URL');
  });

  it('says another program is using the endpoint (amber: nothing is broken here), with no count of failures', () => {
    const taken = { ...endpoint('waiting', 0), lastErrorCause: { code: 'endpoint.replacedByRun', params: { pid: 42, config: 'x.json' } } };
    const s = summarizeStatus(state({ endpoints: [taken] }));
    expect(s).toMatchObject({ tone: 'warn', icon: 'partial' });
    expect(translate('zh-CN', s.headline.key, s.headline.params)).toBe('另一个程序正在使用接入点');
  });

  it('is green when all is well, and off when stopped', () => {
    const ok = summarizeStatus(state({ endpoints: [endpoint('connected')], servers: [server('running')] }));
    expect(ok).toMatchObject({ tone: 'ok', icon: 'connected' });
    expect(ok.lines.map((l) => en(l.key, l.params))).toEqual(['1/1 endpoints connected', '1/1 servers running · 4 tools']);
    expect(summarizeStatus(state({ running: false }))).toMatchObject({ tone: 'off', icon: 'stopped' });
  });
});

describe('plurals and numbers through Intl', () => {
  it('picks the form for the number in each language', () => {
    expect(translate('en', 'tools.calls', { count: 1 })).toBe('1 call');
    expect(translate('en', 'tools.calls', { count: 1200 })).toBe('1,200 calls');
    expect(translate('zh-CN', 'tools.calls', { count: 1 })).toBe('1 次调用');
    expect(translate('en', 'import.summary', { count: 0 })).toBe('Nothing will be added.');
    expect(translate('en', 'overview.toolsSize', { size: '1 KB', pages: 1, limit: '8 KB' })).toBe('1 KB in 1 page of ≤ 8 KB');
  });
});

describe("the app's own tools are not the user's", () => {
  it('counts only the servers’ tools in the servers line, as the overview does (userToolCount)', () => {
    const s = summarizeStatus(
      state({
        endpoints: [endpoint('connected')],
        servers: [server('running')],
        catalog: { toolCount: 6, bytes: 1, pages: 1, appTools: 2 },
      }),
    );
    expect(s.lines.map((l) => en(l.key, l.params))).toContain('1/1 servers running · 4 tools');
    const only = state({ catalog: { toolCount: 2, bytes: 1, pages: 1, appTools: 2 } });
    expect(userToolCount(only)).toBe(0);
    expect(userToolCount({ ...only, servers: [server('running')], catalog: { toolCount: 5, bytes: 1, pages: 1, appTools: 2 } })).toBe(3);
  });
});

describe('an endpoint closed by xiaozhi, in words a person reads', () => {
  it('says what happened first, the close code only as a technical detail in the small print', () => {
    const zh = translator('zh-CN');
    const said = problemMessage(zh, { code: 'endpoint.closed', params: { code: 1008 } }, undefined)!;
    // Before: "小智关闭了连接（代码 1008）。"
    expect(said.message).toBe('小智那边断开了连接。');
    expect(said.hint).toBe('会自动重新连接。（技术信息：关闭代码 1008）');
    const refused = problemMessage(zh, { code: 'endpoint.tokenRejected', params: { code: 1008 } }, undefined)!;
    expect(refused.message).not.toMatch(/代码|1008/);
    expect(problemMessage(en, { code: 'endpoint.closed', params: { code: 1008 } }, undefined)!.message).toBe(
      'xiaozhi closed the connection.',
    );
  });
});
