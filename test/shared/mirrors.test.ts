import { describe, expect, it } from 'vitest';

import { CHINA_MIRRORS, mirrorEnv, MirrorSettingsSchema, mirrorUrls, unchosenPreset } from '../../src/shared/mirrors';
import { SettingsSchema } from '../../src/shared/settings';

describe('download sources', () => {
  it('are official, and set nothing in a child, until chosen, outside China', () => {
    const { mirrors } = SettingsSchema.parse({});
    expect(mirrors).toEqual({});
    expect(mirrorEnv(mirrorUrls(mirrors, unchosenPreset('en', 'en-US', 'Europe/Berlin')))).toEqual({});
  });

  it('until chosen, are the mainland China mirrors for a Chinese window or a China time zone; a choice always wins', () => {
    expect(unchosenPreset('zh-CN', 'zh-CN', 'Europe/Berlin')).toBe('china');
    expect(unchosenPreset('zh-CN', 'en-US', 'Europe/Berlin')).toBe('china');
    expect(unchosenPreset('en', 'en-US', 'Asia/Shanghai')).toBe('china');
    expect(unchosenPreset('en', 'en-US', 'Asia/Urumqi')).toBe('china');
    // Hong Kong and Taiwan reach GitHub and nodejs.org.
    expect(unchosenPreset('en', 'en-US', 'Asia/Hong_Kong')).toBe('default');
    expect(unchosenPreset('en', 'en-US', undefined)).toBe('default');
    expect(mirrorUrls({}, 'china')).toEqual(CHINA_MIRRORS);
    expect(mirrorUrls({ preset: 'default' }, 'china')).toEqual({});
    expect(mirrorUrls({ preset: 'china' }, 'default')).toEqual(CHINA_MIRRORS);
  });

  /** Issue 33: every Chinese window got the mainland mirrors, though Hong Kong, Macau and Taiwan reach the official sites. */
  it('until chosen, are the official sites for a Chinese window in Taiwan, Hong Kong or Macau, by the locale or the time zone', () => {
    for (const locale of ['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-Hant-TW', 'zh-Hant-HK', 'zh_TW', 'zh-Hans-HK'])
      expect([locale, unchosenPreset('zh-CN', locale, undefined)]).toEqual([locale, 'default']);
    for (const locale of ['zh', 'zh-CN', 'zh-Hans', 'zh-Hans-CN', 'zh-SG', undefined])
      expect([locale, unchosenPreset('zh-CN', locale, undefined)]).toEqual([locale, 'china']);
    // 简体中文 chosen in Settings (the only Chinese dictionary) on a Taiwanese system: the locale still says where it is.
    expect(unchosenPreset('zh-CN', 'zh-TW', 'Europe/Berlin')).toBe('default');
    // A Chinese window whose locale says nothing of the place: the time zone of Taipei, Hong Kong or Macau does.
    for (const zone of ['Asia/Taipei', 'Asia/Hong_Kong', 'Hongkong', 'Asia/Macau', 'Asia/Macao', 'ROC'])
      expect([zone, unchosenPreset('zh-CN', 'en-US', zone)]).toEqual([zone, 'default']);
    // A mainland time zone still says mainland, whatever the locale.
    expect(unchosenPreset('zh-CN', 'zh-TW', 'Asia/Shanghai')).toBe('china');
    expect(unchosenPreset('en', 'zh-HK', 'Asia/Shanghai')).toBe('china');
  });

  it('in mainland China: npmmirror for npm and Node.js, Tsinghua for PyPI, npmmirror for the Pythons uv installs', () => {
    expect(mirrorEnv(mirrorUrls({ preset: 'china' }, 'default'))).toEqual({
      npm_config_registry: 'https://registry.npmmirror.com/',
      UV_DEFAULT_INDEX: 'https://pypi.tuna.tsinghua.edu.cn/simple',
      UV_INDEX_URL: 'https://pypi.tuna.tsinghua.edu.cn/simple',
      PIP_INDEX_URL: 'https://pypi.tuna.tsinghua.edu.cn/simple',
      UV_PYTHON_INSTALL_MIRROR: 'https://registry.npmmirror.com/-/binary/python-build-standalone/',
    });
    expect(CHINA_MIRRORS.nodeDist).toBe('https://registry.npmmirror.com/-/binary/node/');
    // No mirror of uv's GitHub releases could be confirmed: uv comes as its wheel from Tsinghua's PyPI mirror.
    expect(CHINA_MIRRORS.uvDownload).toBeUndefined();
    expect(CHINA_MIRRORS.uvIndex).toBe('https://pypi.tuna.tsinghua.edu.cn/simple');
    expect(Object.values(CHINA_MIRRORS).every((url) => !/github|nodejs\.org|pypi\.org/.test(url))).toBe(true);
  });

  it('a custom PyPI index for uv is a source like the others, and sets nothing in a child', () => {
    const own = { uvIndex: 'https://mirrors.aliyun.com/pypi/simple/' };
    expect(MirrorSettingsSchema.parse({ preset: 'custom', ...own })).toEqual({ preset: 'custom', ...own });
    expect(mirrorUrls({ preset: 'custom', ...own }, 'default')).toEqual(own);
    expect(mirrorEnv(mirrorUrls({ preset: 'custom', ...own }, 'default'))).toEqual({});
    expect(MirrorSettingsSchema.safeParse({ preset: 'custom', uvIndex: 'http://pypi.example.com/simple/' }).success).toBe(false);
  });

  it("custom: only the user's own sources, and only with that preset", () => {
    const own = { npmRegistry: 'https://npm.example.com/', nodeDist: 'https://nodes.example.com/dist/' };
    expect(mirrorUrls({ preset: 'custom', ...own }, 'default')).toEqual(own);
    expect(mirrorEnv(mirrorUrls({ preset: 'custom', ...own }, 'default'))).toEqual({ npm_config_registry: 'https://npm.example.com/' });
    expect(mirrorUrls({ preset: 'default', ...own }, 'default')).toEqual({});
  });

  it('refuses a source that is not https (but a local one), or that holds a password', () => {
    expect(MirrorSettingsSchema.safeParse({ preset: 'custom', npmRegistry: 'http://npm.example.com/' }).success).toBe(false);
    expect(MirrorSettingsSchema.safeParse({ preset: 'custom', pypiIndex: 'https://u:p@pypi.example.com/simple' }).success).toBe(false);
    expect(MirrorSettingsSchema.safeParse({ preset: 'custom', nodeDist: 'http://127.0.0.1:8080/dist/' }).success).toBe(true);
    expect(MirrorSettingsSchema.safeParse({ preset: 'mainland' }).success).toBe(false);
  });
});
