import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { mergePath, readLoginShellPath } from '../../../src/main/core/servers/login-shell-path';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the login shell PATH (GUI apps start with a poor one)', () => {
  it.skipIf(process.platform === 'win32')('reads PATH from a login shell that prints banners around it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-shell-'));
    dirs.push(dir);
    const shell = path.join(dir, 'fake-shell');
    // A real shell script standing in for the user's zsh/bash with a chatty rc file.
    fs.writeFileSync(
      shell,
      '#!/bin/sh\necho "Welcome back!"\nPATH=/opt/homebrew/bin:/home/u/.local/bin:/usr/bin\nexport PATH\nshift\neval "$1"\necho "bye"\n',
      { mode: 0o755 },
    );
    expect(await readLoginShellPath(shell)).toBe('/opt/homebrew/bin:/home/u/.local/bin:/usr/bin');
  });

  it.skipIf(process.platform === 'win32')('gives up quietly on a shell that fails', async () => {
    expect(await readLoginShellPath('/nonexistent/shell')).toBeUndefined();
  });

  it('puts the login shell entries first without duplicates', () => {
    expect(mergePath('/opt/homebrew/bin:/usr/bin', '/usr/bin:/bin')).toBe(['/opt/homebrew/bin', '/usr/bin', '/bin'].join(path.delimiter));
    expect(mergePath(undefined, '/usr/bin')).toBe('/usr/bin');
  });
});
