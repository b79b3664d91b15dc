import { describe, expect, it } from 'vitest';

import { defaultCacheDir } from '../../../../src/main/core/catalogue/catalogue-service';

describe("the headless bridge's cache folder (where --fetch-runtimes keeps Node.js and uv)", () => {
  it('is under XDG_CACHE_HOME on Linux, and under ~/.cache when that is unset, empty or relative', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/me' }, 'linux', '/home/me')).toBe('/var/cache/me/xiaozhi-tray');
    expect(defaultCacheDir({}, 'linux', '/home/me')).toBe('/home/me/.cache/xiaozhi-tray');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '' }, 'linux', '/home/me')).toBe('/home/me/.cache/xiaozhi-tray');
    expect(defaultCacheDir({ XDG_CACHE_HOME: 'cache' }, 'linux', '/home/me')).toBe('/home/me/.cache/xiaozhi-tray');
  });
});
