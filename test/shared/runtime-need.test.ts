import { describe, expect, it } from 'vitest';

import { CHINA_MIRRORS, mirrorUrls } from '../../src/shared/mirrors';
import { installCommand, runtimeNeed } from '../../src/shared/runtime-need';

describe('which runtime a command needs', () => {
  it('knows the programs of Node.js and uv, by name, on each OS', () => {
    expect(['npx', 'npm', 'node'].map((c) => runtimeNeed(c, 'linux'))).toEqual(['node', 'node', 'node']);
    expect(['uvx', 'uv'].map((c) => runtimeNeed(c, 'darwin'))).toEqual(['uv', 'uv']);
    expect(['npx.cmd', 'NPX.CMD', 'node.exe', 'uvx.exe'].map((c) => runtimeNeed(c, 'win32'))).toEqual(['node', 'node', 'node', 'uv']);
    // On Linux "npx.cmd" is another program.
    expect(runtimeNeed('npx.cmd', 'linux')).toBeUndefined();
  });

  it('leaves a full path, and any other program, alone', () => {
    expect(runtimeNeed('/usr/local/bin/npx', 'linux')).toBeUndefined();
    expect(runtimeNeed('C:\\Program Files\\nodejs\\npx.cmd', 'win32')).toBeUndefined();
    expect(runtimeNeed('python3', 'linux')).toBeUndefined();
    expect(runtimeNeed('docker', 'win32')).toBeUndefined();
    expect(runtimeNeed('constructor', 'linux')).toBeUndefined();
  });

  it('gives the exact install command for each OS', () => {
    expect(installCommand('node', 'win32')).toBe('winget install OpenJS.NodeJS.LTS');
    expect(installCommand('node', 'darwin')).toBe('brew install node');
    expect(installCommand('node', 'linux')).toMatch(/nvm-sh\/nvm\/.*install\.sh \| bash && .*nvm install 22$/);
    expect(installCommand('uv', 'win32')).toBe('powershell -ExecutionPolicy ByPass -c "irm https://astral.sh/uv/install.ps1 | iex"');
    expect(installCommand('uv', 'linux')).toBe('curl -LsSf https://astral.sh/uv/install.sh | sh');
    expect(installCommand('uv', 'darwin')).toBe(installCommand('uv', 'linux'));
  });

  it("with the mainland China mirrors, each command fetches from them (GitHub and the installers' sites are often unreachable there)", () => {
    const china = mirrorUrls({ preset: 'china' }, 'default');
    expect(installCommand('uv', 'linux', china)).toBe('pipx install uv --index-url https://pypi.tuna.tsinghua.edu.cn/simple');
    expect(installCommand('uv', 'darwin', china)).toBe(installCommand('uv', 'linux', china));
    expect(installCommand('uv', 'win32', china)).toBe('pip install uv -i https://pypi.tuna.tsinghua.edu.cn/simple');
    const dist = `${CHINA_MIRRORS.nodeDist}v22.12.0/`;
    expect(installCommand('node', 'win32', china)).toBe(`msiexec /i ${dist}node-v22.12.0-x64.msi`);
    expect(installCommand('node', 'win32', china, 'arm64')).toBe(`msiexec /i ${dist}node-v22.12.0-arm64.msi`);
    expect(installCommand('node', 'darwin', china)).toBe(
      `curl -fsSLO ${dist}node-v22.12.0.pkg && sudo installer -pkg node-v22.12.0.pkg -target /`,
    );
    expect(installCommand('node', 'linux', china)).toBe(
      `curl -fsSL ${dist}node-v22.12.0-linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/').tar.xz | sudo tar -xJf - -C /usr/local --strip-components=1`,
    );
    // A custom PyPI index (for packages or for uv) is used the same way.
    expect(installCommand('uv', 'linux', { pypiIndex: 'https://pypi.example/simple/' })).toBe(
      'pipx install uv --index-url https://pypi.example/simple/',
    );
  });
});
