import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { findLauncher } from '../../src/cli/launcher-watch';

describe('which processes the bridge watches', () => {
  it('none unless a package manager launched it: nohup … & from a shell that exits must keep running', () => {
    expect(findLauncher({ PATH: '/usr/bin' })).toEqual({ pids: [], goneAtStart: false });
  });

  it("under npm, npx, pnpm or yarn: the parent and the parent's parent (npm runs us through sh -c)", () => {
    const grandparent = Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(process.ppid)], { encoding: 'utf8' }).trim());
    const expected = grandparent > 1 ? [process.ppid, grandparent] : [process.ppid];
    expect(findLauncher({ npm_command: 'exec' }, 'linux')).toEqual({ pids: expected, goneAtStart: false });
    expect(findLauncher({ npm_execpath: '/usr/lib/node_modules/pnpm/bin/pnpm.cjs' }, 'linux').pids).toEqual(expected);
    expect(findLauncher({ npm_lifecycle_event: 'start' }, 'win32').pids).toEqual([process.ppid]);
  });
});
