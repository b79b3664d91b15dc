import { describe, expect, it } from 'vitest';

import { withPathFirst } from '../../../../src/main/core/runtimes/child-runtime';

describe("the app's runtime first on a child's PATH", () => {
  it('puts the folder first, with the separator of the OS', () => {
    const env = { PATH: '/usr/bin:/bin' };
    withPathFirst(env, '/data/runtimes/node/bin', 'linux');
    expect(env).toEqual({ PATH: '/data/runtimes/node/bin:/usr/bin:/bin' });
  });

  it('on Windows, keeps the name the variable has there (Path), without adding a second one', () => {
    const env: Record<string, string> = { Path: 'C:\\Windows\\system32', PATHEXT: '.EXE;.CMD' };
    withPathFirst(env, 'C:\\Users\\a\\AppData\\Roaming\\Xiaozhi Tray\\runtimes\\node-v22.12.0-win-x64', 'win32');
    expect(env).toEqual({
      Path: 'C:\\Users\\a\\AppData\\Roaming\\Xiaozhi Tray\\runtimes\\node-v22.12.0-win-x64;C:\\Windows\\system32',
      PATHEXT: '.EXE;.CMD',
    });
  });

  it('makes a PATH when there was none', () => {
    const env: Record<string, string> = {};
    withPathFirst(env, '/r/bin', 'darwin');
    expect(env).toEqual({ PATH: '/r/bin' });
  });
});
