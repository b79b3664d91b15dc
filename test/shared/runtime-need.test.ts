import { describe, expect, it } from 'vitest';
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
});
