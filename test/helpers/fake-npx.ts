import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { FIXTURE } from './bridge-harness';

export interface FakeNpx {
  /** A folder holding `npx`, to put first on PATH. */
  bin: string;
  /** An empty npm cache: the package is not in it (a first run). */
  cache: string;
  /** The server's env: PATH with the fake first, the empty cache, and what the fake needs. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** The server "weather" run as `npx <args>` through this fake, with `env(extra)`. */
  server(
    args: string[],
    extra?: Record<string, string>,
  ): { name: string; transport: 'stdio'; command: string; args: string[]; env: Record<string, string> };
  /** Puts `name` in the npx cache, as a run before this one would have. */
  cachePackage(name: string): void;
  remove(): void;
}

/**
 * A stand-in for `npx` on a first run: prints on stderr what npm prints (when `FAKE_NPX_SAYS` is
 * set), "downloads" for `FAKE_NPX_SECONDS`, then runs the fixture server in its place.
 */
export function fakeNpx(): FakeNpx {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-fake-npx-'));
  const bin = path.join(root, 'bin');
  const cache = path.join(root, 'npm-cache');
  fs.mkdirSync(bin);
  fs.mkdirSync(cache);
  fs.writeFileSync(
    path.join(bin, 'npx'),
    [
      '#!/bin/sh',
      'if [ -n "$FAKE_NPX_SAYS" ]; then echo "$FAKE_NPX_SAYS" >&2; fi',
      'sleep "${FAKE_NPX_SECONDS:-3}"',
      'exec "$FAKE_NPX_NODE" "$FAKE_NPX_SERVER"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const env = (extra = {}) => ({
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_cache: cache,
    FAKE_NPX_NODE: process.execPath,
    FAKE_NPX_SERVER: FIXTURE,
    FIXTURE_NAME: 'weather',
    ...extra,
  });
  return {
    bin,
    cache,
    env,
    server: (args, extra) => ({ name: 'weather', transport: 'stdio', command: 'npx', args, env: env(extra) }),
    cachePackage: (name) => {
      const dir = path.join(cache, '_npx', '0123456789abcdef', 'node_modules', name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
