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
});
