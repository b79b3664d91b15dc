import { describe, expect, it } from 'vitest';

import { LogBook } from '../../../../src/main/core/logs/log-book';
import { StderrLog } from '../../../../src/main/core/servers/stderr-log';

describe("a server's stderr in the log", () => {
  it("keeps npm's own notices (npx's, about npm itself) but at debug: they are not the server speaking, nor the app", () => {
    const book = new LogBook();
    const stderr = new StderrLog(book.logger('server:fs'));
    // As npm 10 prints them when a newer npm exists (npm/cli lib/cli/update-notifier.js).
    stderr.push('npm notice');
    stderr.push('npm notice New major version of npm available! 10.8.2 -> 11.6.2');
    stderr.push('npm notice To update run: npm install -g npm@11.6.2');
    stderr.push('Secure MCP Filesystem Server running on stdio');
    expect(book.entries().map((e) => [e.level, e.message])).toEqual([
      ['debug', 'npm notice'],
      ['debug', 'npm notice New major version of npm available! 10.8.2 -> 11.6.2'],
      ['debug', 'npm notice To update run: npm install -g npm@11.6.2'],
      ['info', 'Secure MCP Filesystem Server running on stdio'],
    ]);
    stderr.close();
  });

  it('logs npm\'s error lines (npm 10\'s "npm error", npm 6–9\'s "npm ERR!") as errors, not as the server\'s info', () => {
    const book = new LogBook();
    const stderr = new StderrLog(book.logger('server:memory'));
    // As npm prints a failed fetch (npm/cli lib/utils/error-message.js; "npm ERR!" before npm 10).
    stderr.push('npm error code ECONNREFUSED');
    stderr.push('npm error network request to https://registry.npmmirror.com/x failed');
    stderr.push('npm ERR! code E404');
    expect(book.entries().map((e) => e.level)).toEqual(['error', 'error', 'error']);
    stderr.close();
  });
});
