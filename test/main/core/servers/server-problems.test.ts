import { describe, expect, it } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import {
  crashProblem,
  earlyExitProblem,
  englishText,
  exitProblem,
  failureEnglish,
  say,
} from '../../../../src/main/core/problems/server-problems';
import { serverUrl } from '../../../../src/main/core/servers/permanent-failure';
import { spawnFailure, systemLimit } from '../../../../src/main/core/servers/spawn-failure';
import { problem } from '../../../../src/shared/problem';

describe("a server's problems: data where they happen, English in one place", () => {
  it('words how a program ended as the log, the CLI and lastError always said it', () => {
    expect(englishText(exitProblem({ code: 7, signal: null }))).toBe('the program exited with code 7');
    expect(englishText(exitProblem({ code: null, signal: 'SIGKILL' }))).toBe('the program was killed by SIGKILL');
    expect(englishText(earlyExitProblem({ code: 2, signal: null }, ''))).toBe('the program exited before it was ready, with exit code 2');
    expect(englishText(earlyExitProblem({ code: null, signal: 'SIGTERM' }, 'x'))).toBe(
      'the program exited before it was ready, killed by SIGTERM',
    );
    expect(englishText(earlyExitProblem(undefined, ''))).toBe('the program exited before it was ready');
    expect(englishText(crashProblem('Error: FOO_TOKEN is not set', { code: 1, signal: null }, true))).toBe(
      'the program exited before it was ready, with exit code 1: Error: FOO_TOKEN is not set',
    );
    expect(englishText(crashProblem('TypeError: x', { code: 7, signal: null }, false))).toBe(
      'the program exited with code 7: TypeError: x',
    );
  });

  it('keeps the facts in the problem: the window words the code, the log the rest', () => {
    expect(crashProblem('ValueError: bad key', { code: 1, signal: null }, true)).toEqual({
      code: 'server.crashed',
      params: { line: 'ValueError: bad key', code: 1, when: 'starting' },
    });
    expect(earlyExitProblem({ code: 2, signal: null }, 'last line')).toEqual({
      code: 'server.exitedEarly',
      params: { lastLine: 'last line', code: 2 },
    });
  });

  it('words the failures found before a start, from their problems', () => {
    const missing = spawnFailure(Object.assign(new Error('spawn x ENOENT'), { code: 'ENOENT' }), {
      name: 'x',
      transport: 'stdio',
      command: 'npx-typo-does-not-exist',
      args: [],
      env: {},
      enabled: true,
    });
    expect(missing).toEqual({ code: 'server.notFound', params: { command: 'npx-typo-does-not-exist' } });
    expect(englishText(missing!)).toBe('the command "npx-typo-does-not-exist" was not found on PATH; install it, or give its full path');
    const busy = systemLimit(Object.assign(new Error('spawn EMFILE'), { code: 'EMFILE' }));
    expect(englishText(busy!)).toBe('the bridge has too many files open to start it (EMFILE); trying again');
    expect(systemLimit(Object.assign(new Error('nope'), { code: 'EPERM' }))).toBeUndefined();
    expect(() => serverUrl('not a url')).toThrow('the URL of this server is not a valid address');
    expect(englishText(problem('server.authRefused', { status: 401 }))).toBe(
      'the server refused the credentials (HTTP 401): check the token or headers of this server',
    );
  });

  it("keeps a foreign error's own words for the log, and its code for the window", () => {
    expect(
      failureEnglish({ problem: problem('net.refused', { host: 'h', port: '1' }), foreign: 'fetch failed: connect ECONNREFUSED' }),
    ).toBe('fetch failed: connect ECONNREFUSED');
    expect(englishText(problem('net.refused', { host: 'h', port: '1' }))).toBe('net.refused (host=h, port=1)');
  });

  it('logs an event in English with the event and the failure it reports as data, redacted like the text', () => {
    const book = new LogBook();
    book.setSecrets(['sk-secret-value-123']);
    const failure = { problem: crashProblem('Error: bad key sk-secret-value-123', { code: 1, signal: null }, false) };
    say(book.logger('server:py'), 'warn', problem('server.restarting', { seconds: 2 }), failure);
    const [entry] = book.entries();
    expect(entry).toMatchObject({
      level: 'warn',
      source: 'server:py',
      message: 'the program exited with code 1: Error: bad key sk-s…(redacted); restarting in 2.0 s',
      problem: { code: 'server.restarting', params: { seconds: 2 } },
      cause: { code: 'server.crashed', params: { code: 1, line: 'Error: bad key sk-s…(redacted)' } },
    });
    expect(JSON.stringify(entry)).not.toContain('secret-value');
  });
});
