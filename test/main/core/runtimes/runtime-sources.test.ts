import { describe, expect, it } from 'vitest';
import { checksumFor, runtimeSource } from '../../../../src/main/core/runtimes/runtime-sources';
import { CHINA_MIRRORS } from '../../../../src/shared/mirrors';

describe('where each runtime release is', () => {
  it('Node.js: the official archive for each OS and CPU, with SHASUMS256.txt beside it', () => {
    expect(runtimeSource('node', {}, 'linux', 'x64')).toEqual({
      runtime: 'node',
      version: '22.12.0',
      archive: 'node-v22.12.0-linux-x64.tar.xz',
      url: 'https://nodejs.org/dist/v22.12.0/node-v22.12.0-linux-x64.tar.xz',
      checksumUrl: 'https://nodejs.org/dist/v22.12.0/SHASUMS256.txt',
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

  it('Node.js from npmmirror in the mainland China preset', () => {
    expect(runtimeSource('node', CHINA_MIRRORS, 'win32', 'x64')?.url).toBe(
      'https://registry.npmmirror.com/-/binary/node/v22.12.0/node-v22.12.0-win-x64.zip',
    );
  });

  it('uv: the GitHub release archive for each target, with its .sha256', () => {
    expect(runtimeSource('uv', {}, 'linux', 'arm64')).toMatchObject({
      archive: 'uv-aarch64-unknown-linux-gnu.tar.gz',
      url: 'https://github.com/astral-sh/uv/releases/download/0.10.10/uv-aarch64-unknown-linux-gnu.tar.gz',
      checksumUrl: 'https://github.com/astral-sh/uv/releases/download/0.10.10/uv-aarch64-unknown-linux-gnu.tar.gz.sha256',
      binDir: '',
    });
    expect(runtimeSource('uv', {}, 'win32', 'x64')).toMatchObject({ archive: 'uv-x86_64-pc-windows-msvc.zip', program: 'uv.exe' });
    expect(runtimeSource('uv', {}, 'darwin', 'x64')?.archive).toBe('uv-x86_64-apple-darwin.tar.gz');
    expect(runtimeSource('uv', { uvDownload: 'https://mirror.example.com/uv' }, 'darwin', 'x64')?.url).toBe(
      'https://mirror.example.com/uv/0.10.10/uv-x86_64-apple-darwin.tar.gz',
    );
  });

  it("reads the archive's checksum from a SHASUMS file or a .sha256 file", () => {
    const a = 'a'.repeat(64);
    const b = 'B'.repeat(64);
    const shasums = `${a}  node-v22.12.0-linux-arm64.tar.xz\n${b}  node-v22.12.0-linux-x64.tar.xz\n`;
    expect(checksumFor(shasums, 'node-v22.12.0-linux-x64.tar.xz')).toBe('b'.repeat(64));
    expect(checksumFor(`${a} *uv-x86_64-pc-windows-msvc.zip\r\n`, 'uv-x86_64-pc-windows-msvc.zip')).toBe(a);
    expect(checksumFor(shasums, 'node-v22.12.0-linux-x64.tar.gz')).toBeUndefined();
    expect(checksumFor('<html>not found</html>', 'x')).toBeUndefined();
  });
});
