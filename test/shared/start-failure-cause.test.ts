import { describe, expect, it } from 'vitest';

import { startFailureCause } from '../../src/main/core/problems/start-failure-cause';
import { serverStateWord } from '../../src/shared/server-state-word';

describe('the cause a program’s last words name', () => {
  it('names a folder that is gone (the filesystem server, Node’s ENOENT)', () => {
    expect(startFailureCause('Error: None of the specified directories are accessible')).toEqual({
      code: 'start.folderMissing',
      params: {},
    });
    expect(startFailureCause("Error: ENOENT: no such file or directory, stat '/home/a/docs'")).toEqual({
      code: 'start.folderMissing',
      params: { path: '/home/a/docs' },
    });
  });

  it('names a key the program needs and was not given (AMap, Tavily, a Python ValueError), not a key it was refused', () => {
    for (const line of [
      'ValueError: missing API key',
      'Error: AMAP_MAPS_API_KEY environment variable is not set',
      'Error: TAVILY_API_KEY environment variable is required',
      "KeyError: 'OPENWEATHER_API_KEY'",
      'Error: BRAVE_API_KEY is missing',
      'api key not provided',
    ]) {
      expect(startFailureCause(line), line).toEqual({ code: 'start.keyMissing', params: {} });
    }
    expect(startFailureCause('Error: 401 Unauthorized: invalid api key')?.code).not.toBe('start.keyMissing');
    expect(startFailureCause('the key is missing from the cache, rebuilding')).toBeUndefined();
  });

  it('does not call a missing file a folder gone (a script, a config file the program opens)', () => {
    expect(startFailureCause("python: can't open file '/home/a/server.py': [Errno 2] No such file or directory")).toBeUndefined();
    expect(startFailureCause("Error: ENOENT: no such file or directory, open '/home/a/.config/app/config.json'")).toBeUndefined();
    expect(
      startFailureCause('error: Failed to spawn: `mcp-server-typo`\n  Caused by: No such file or directory (os error 2)'),
    ).toBeUndefined();
    expect(startFailureCause("Error: ENOENT: no such file or directory, scandir '/home/a/docs'")).toEqual({
      code: 'start.folderMissing',
      params: { path: '/home/a/docs' },
    });
  });

  it('names a site out of reach as a failed call does, and nothing for words it does not know', () => {
    expect(startFailureCause('Error: getaddrinfo ENOTFOUND api.example.com')).toMatchObject({
      code: 'net.dns',
      params: { host: 'api.example.com' },
    });
    expect(startFailureCause('TypeError: x is not a function')).toBeUndefined();
  });
});

describe('a server’s state word', () => {
  const base = { transport: 'stdio' as const, state: 'restarting' as const };
  it('is calm while it tries again, and says a retry that installs is a retry, not a first run', () => {
    expect(serverStateWord(base)).toEqual({ key: 'state.restarting', params: {}, tone: 'busy' });
    expect(serverStateWord({ ...base, installing: { runner: 'npx' } }).key).toBe('state.retryInstalling');
    expect(serverStateWord({ ...base, state: 'starting', installing: { runner: 'npx' } }).key).toBe('state.installing');
    expect(serverStateWord({ ...base, state: 'failed' })).toEqual({ key: 'state.failed', params: {}, tone: 'bad' });
  });
});
