import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

const read = async (tool: string, name: string) =>
  ((await harness!.bridge.toolHub.call(tool, { name }, { caller: 'test' })).result.content[0] as { text: string }).text;

describe('the download-source setting reaches the servers the bridge starts', () => {
  it('gives each child the mirror variables, its own env still winning; the bridge process keeps none', async () => {
    harness = makeBridge({
      mirrors: { preset: 'china' },
      servers: [fixtureServer('fx'), fixtureServer('own', { npm_config_registry: 'https://npm.example.com/' })],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(await read('fx_getenv', 'npm_config_registry')).toBe('https://registry.npmmirror.com/');
    expect(await read('fx_getenv', 'UV_DEFAULT_INDEX')).toBe('https://pypi.tuna.tsinghua.edu.cn/simple');
    expect(await read('fx_getenv', 'UV_INDEX_URL')).toBe('https://pypi.tuna.tsinghua.edu.cn/simple');
    expect(await read('fx_getenv', 'UV_PYTHON_INSTALL_MIRROR')).toBe('https://registry.npmmirror.com/-/binary/python-build-standalone/');
    expect(await read('own_getenv', 'npm_config_registry')).toBe('https://npm.example.com/');
    expect(process.env.npm_config_registry).not.toBe('https://registry.npmmirror.com/');
  });

  it('set back to the official sources, a restarted child gets none of them', async () => {
    harness = makeBridge({ mirrors: { preset: 'china' }, servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.updatePreferences({ mirrors: { preset: 'default' } });
    await harness.bridge.api.restartServer({ name: 'fx' });
    await harness.bridge.whenServersSettled();
    expect(await read('getenv', 'UV_DEFAULT_INDEX')).toBe('(unset)');
    expect(harness.store.load().mirrors).toEqual({ preset: 'default' });
  });

  it('until the user chooses, a Chinese window or a China time zone gets the mainland China mirrors; the choice wins', async () => {
    harness = makeBridge({ ui: { language: 'zh-CN' }, servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(await read('getenv', 'npm_config_registry')).toBe('https://registry.npmmirror.com/');
    expect((await harness.bridge.api.getHostInfo()).unchosenMirrors).toBe('china');
    await harness.bridge.stop();

    const english = { ...process.env, LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
    harness = makeBridge({ ui: { language: 'system' }, servers: [fixtureServer('fx')] }, undefined, {
      env: { ...english, TZ: 'Asia/Shanghai' },
    });
    expect((await harness.bridge.api.getHostInfo()).unchosenMirrors).toBe('china');
    await harness.bridge.stop();

    harness = makeBridge({ ui: { language: 'system' }, mirrors: { preset: 'default' }, servers: [fixtureServer('fx')] }, undefined, {
      env: { ...english, TZ: 'Asia/Shanghai' },
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(await read('getenv', 'npm_config_registry')).not.toBe('https://registry.npmmirror.com/');
    await harness.bridge.stop();

    harness = makeBridge({ ui: { language: 'system' } }, undefined, { env: { ...english, TZ: 'Europe/Berlin' } });
    expect((await harness.bridge.api.getHostInfo()).unchosenMirrors).toBe('default');
    expect((await harness.bridge.api.getHostInfo()).systemLocale).toBe('en-US');
    await harness.bridge.stop();

    // A Chinese window in Taiwan (its own locale, or 简体中文 chosen there) reaches the official sites.
    const taiwan = { ...process.env, LANG: 'zh_TW.UTF-8', LC_ALL: '', LC_MESSAGES: '', TZ: 'Asia/Taipei' };
    for (const language of ['system', 'zh-CN'] as const) {
      harness = makeBridge({ ui: { language } }, undefined, { env: taiwan });
      expect((await harness.bridge.api.getHostInfo()).unchosenMirrors).toBe('default');
      await harness.bridge.stop();
    }
    harness = makeBridge({ ui: { language: 'zh-CN' } }, undefined, { env: { ...taiwan, TZ: 'Europe/Berlin' } });
    expect((await harness.bridge.api.getHostInfo()).unchosenMirrors).toBe('default');
  });

  it("until the user chooses, the sources the run's own environment names win over the place's", async () => {
    const own = { npm_config_registry: 'https://npm.corp.example/', UV_INDEX_URL: 'https://pypi.corp.example/simple' };
    harness = makeBridge({ ui: { language: 'zh-CN' }, servers: [fixtureServer('fx')] }, undefined, { env: { ...process.env, ...own } });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(await read('getenv', 'npm_config_registry')).toBe('https://npm.corp.example/');
    expect(await read('getenv', 'UV_INDEX_URL')).toBe('https://pypi.corp.example/simple');
    // uv reads UV_DEFAULT_INDEX before UV_INDEX_URL: ours set beside theirs would still win.
    expect(await read('getenv', 'UV_DEFAULT_INDEX')).toBe('(unset)');
    // The sources no environment names still come from the place's choice.
    expect(await read('getenv', 'UV_PYTHON_INSTALL_MIRROR')).toBe('https://registry.npmmirror.com/-/binary/python-build-standalone/');
  });
});
