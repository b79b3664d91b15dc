import { describe, expect, it } from 'vitest';

import { RUNTIME_PINS } from '../../../../src/main/core/runtimes/runtime-pins';
import { runtimeSource } from '../../../../src/main/core/runtimes/runtime-sources';
import { CHINA_MIRRORS, mirrorUrls } from '../../../../src/shared/mirrors';

const PLATFORMS: [NodeJS.Platform, string][] = [
  ['linux', 'x64'],
  ['linux', 'arm64'],
  ['darwin', 'x64'],
  ['darwin', 'arm64'],
  ['win32', 'x64'],
  ['win32', 'arm64'],
];

describe('where each runtime release is', () => {
  it('Node.js: the official archive for each OS and CPU', () => {
    expect(runtimeSource('node', {}, 'linux', 'x64')).toEqual({
      runtime: 'node',
      version: '22.12.0',
      archive: 'node-v22.12.0-linux-x64.tar.xz',
      pinKey: 'node/22.12.0/node-v22.12.0-linux-x64.tar.xz',
      format: 'archive',
      url: 'https://nodejs.org/dist/v22.12.0/node-v22.12.0-linux-x64.tar.xz',
      folder: 'node-v22.12.0-linux-x64',
      binDir: 'bin',
      program: 'node',
    });
    expect(runtimeSource('node', {}, 'darwin', 'arm64')?.archive).toBe('node-v22.12.0-darwin-arm64.tar.gz');
    expect(runtimeSource('node', {}, 'win32', 'x64')).toMatchObject({
      archive: 'node-v22.12.0-win-x64.zip',
      binDir: '',
      program: 'node.exe',
    });
    expect(runtimeSource('node', {}, 'linux', 'ia32')).toBeUndefined();
  });

  it('Node.js from npmmirror in the mainland China preset: the same archive', () => {
    expect(runtimeSource('node', CHINA_MIRRORS, 'win32', 'x64')).toMatchObject({
      url: 'https://registry.npmmirror.com/-/binary/node/v22.12.0/node-v22.12.0-win-x64.zip',
      pinKey: 'node/22.12.0/node-v22.12.0-win-x64.zip',
    });
  });

  it('uv: the GitHub release archive for each target', () => {
    expect(runtimeSource('uv', {}, 'linux', 'arm64')).toMatchObject({
      archive: 'uv-aarch64-unknown-linux-gnu.tar.gz',
      format: 'archive',
      url: 'https://github.com/astral-sh/uv/releases/download/0.12.0/uv-aarch64-unknown-linux-gnu.tar.gz',
      folder: 'uv-0.12.0-aarch64-unknown-linux-gnu',
      binDir: '',
    });
    expect(runtimeSource('uv', {}, 'win32', 'x64')).toMatchObject({ archive: 'uv-x86_64-pc-windows-msvc.zip', program: 'uv.exe' });
    expect(runtimeSource('uv', { uvDownload: 'https://mirror.example.com/uv' }, 'darwin', 'x64')).toMatchObject({
      url: 'https://mirror.example.com/uv/0.12.0/uv-x86_64-apple-darwin.tar.gz',
    });
  });

  it("uv in the mainland China preset: its wheel from Tsinghua's PyPI mirror, its two programs taken from the scripts folder", () => {
    expect(runtimeSource('uv', mirrorUrls({ preset: 'china' }, 'default'), 'linux', 'x64')).toEqual({
      runtime: 'uv',
      version: '0.12.0',
      archive: 'uv-0.12.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl',
      pinKey: 'uv/0.12.0/uv-0.12.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl',
      format: 'wheel',
      index: 'https://pypi.tuna.tsinghua.edu.cn/simple',
      members: [
        ['uv-0.12.0.data/scripts/uv', 'uv'],
        ['uv-0.12.0.data/scripts/uvx', 'uvx'],
      ],
      // The same folder as the release's: one uv 0.12.0 for this OS and CPU, wherever it came from.
      folder: 'uv-0.12.0-x86_64-unknown-linux-gnu',
      binDir: '',
      program: 'uv',
    });
    expect(runtimeSource('uv', CHINA_MIRRORS, 'win32', 'arm64')).toMatchObject({
      archive: 'uv-0.12.0-py3-none-win_arm64.whl',
      members: [
        ['uv-0.12.0.data/scripts/uv.exe', 'uv.exe'],
        ['uv-0.12.0.data/scripts/uvx.exe', 'uvx.exe'],
      ],
    });
    // A PyPI index for uv wins over a release mirror.
    expect(
      runtimeSource('uv', { uvDownload: 'https://r.example/', uvIndex: 'https://pypi.example/simple/' }, 'darwin', 'arm64'),
    ).toMatchObject({ format: 'wheel', archive: 'uv-0.12.0-py3-none-macosx_11_0_arm64.whl' });
  });

  it('every archive the app can fetch, on every OS and CPU it fetches for, has a pinned SHA-256 and size', () => {
    const sources = [{}, CHINA_MIRRORS].flatMap((urls) =>
      PLATFORMS.flatMap(([platform, arch]) => [runtimeSource('node', urls, platform, arch), runtimeSource('uv', urls, platform, arch)]),
    );
    expect(sources).toHaveLength(24);
    for (const source of sources) {
      const pin = RUNTIME_PINS.get(source!.pinKey);
      expect(pin, source!.pinKey).toBeDefined();
      expect(pin!.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(pin!.maxBytes).toBeGreaterThan(10 * 1024 * 1024);
      expect(pin!.maxBytes).toBeLessThanOrEqual(64 * 1024 * 1024);
    }
    // 6 Node.js archives (official and npmmirror are the same files), 6 uv archives, 6 uv wheels.
    expect(new Set(sources.map((s) => s!.pinKey)).size).toBe(18);
    expect(RUNTIME_PINS.size).toBe(18);
  });

  it('pins the published values (the sources are cited in runtime-pins.ts)', () => {
    const pin = (key: string) => RUNTIME_PINS.get(key);
    // Node.js 22.12.0's signed SHASUMS256.txt.
    expect(pin('node/22.12.0/node-v22.12.0-linux-x64.tar.xz')?.sha256).toBe(
      '22982235e1b71fa8850f82edd09cdae7e3f32df1764a9ec298c72d25ef2c164f',
    );
    expect(pin('node/22.12.0/node-v22.12.0-win-arm64.zip')?.sha256).toBe(
      '17401720af48976e3f67c41e8968a135fb49ca1f88103a92e0e8c70605763854',
    );
    // uv 0.12.0's release .sha256 files.
    expect(pin('uv/0.12.0/uv-aarch64-apple-darwin.tar.gz')?.sha256).toBe(
      '2b9e582af54f84fa50c115427451a6c13e80f43b52f8282b8af5791077317bbf',
    );
    // uv 0.12.0's wheel on PyPI, with its exact size as the bound.
    expect(pin('uv/0.12.0/uv-0.12.0-py3-none-win_amd64.whl')).toEqual({
      sha256: 'ffdfed09a23e67ef6facf1d4db978a3cd73a886674644131a11a933fd746904a',
      maxBytes: 20_005_960,
      size: 20_005_960,
    });
  });
});
