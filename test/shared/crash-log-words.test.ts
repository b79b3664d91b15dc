import { describe, expect, it } from 'vitest';

import { LogBook } from '../../src/main/core/logs/log-book';
import { crashFailure, say } from '../../src/main/core/problems/server-problems';
import { translator } from '../../src/shared/i18n/translate';
import { problem } from '../../src/shared/problem';
import { logHint, logMessage } from '../../src/shared/problem-words';

/** The log line a server that crashed the same way five times ends with (supervisor.ts's `decide`, giving up). */
function gaveUp(line: string) {
  const book = new LogBook();
  say(
    book.logger('server:files'),
    'error',
    problem('server.crashLoop', { count: 5, seconds: 60 }),
    crashFailure(line, { code: 1, signal: null }, true),
  );
  const entry = book.entries()[0];
  if (!entry) throw new Error('nothing logged');
  return entry;
}

describe("a crash's log line in the reader's words", () => {
  it('says a cause it knows in plain words, not the program’s English, and promises no restart once it gave up', () => {
    const entry = gaveUp('Error: None of the specified directories are accessible');
    const zh = translator('zh-CN');
    const said = `${logMessage(zh, entry)} ${logHint(zh, entry) ?? ''}`;
    expect(said).toContain('文件夹');
    expect(said).not.toContain('None of the specified');
    expect(said).not.toContain('会被重启');
    const en = translator('en');
    expect(`${logMessage(en, entry)} ${logHint(en, entry) ?? ''}`).not.toMatch(/is restarted/i);
    // The English log (file, JSON) keeps the program's own line for whoever debugs it.
    expect(entry.message).toContain('None of the specified directories are accessible');
  });

  it('keeps the program’s line when no cause is known, still without a restart it will not do', () => {
    const entry = gaveUp('TypeError: x is not a function');
    const zh = translator('zh-CN');
    expect(logMessage(zh, entry)).toContain('TypeError: x is not a function');
    expect(logHint(zh, entry) ?? '').not.toContain('会被重启');
  });
});
