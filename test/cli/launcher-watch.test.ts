import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { launcherPids } from '../../src/cli/launcher-watch';

describe('which processes the bridge watches', () => {
  it('none unless a package manager launched it: nohup … & from a shell that exits must keep running', () => {
    expect(launcherPids({ PATH: '/usr/bin' })).toEqual([]);
  });

  it('under npm, npx, pnpm or yarn: the parent and the parent\'s parent (npm runs us through sh -c)', () => {
    const grandparent = Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(process.ppid)], { encoding: 'utf8' }).trim());
    const expected = grandparent > 1 ? [process.ppid, grandparent] : [process.ppid];
    expect(launcherPids({ npm_command: 'exec' }, 'linux')).toEqual(expected);
    expect(launcherPids({ npm_execpath: '/usr/lib/node_modules/pnpm/bin/pnpm.cjs' }, 'linux')).toEqual(expected);
    expect(launcherPids({ npm_lifecycle_event: 'start' }, 'win32')).toEqual([process.ppid]);
  });
});
