import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { Backoff } from '../../../../src/main/core/io/backoff';
import { CallHistory } from '../../../../src/main/core/logs/call-history';
import { formatLogLine, LogBook, MAX_LOG_MESSAGE, rotatingFileSink } from '../../../../src/main/core/logs/log-book';
import { LineDecoder } from '../../../../src/main/core/servers/line-decoder';

describe('log book', () => {
  it('keeps a bounded ring, oldest first, and feeds live subscribers', () => {
    const book = new LogBook({ capacity: 3 });
    const seen: string[] = [];
    const off = book.subscribe((e) => seen.push(e.message));
    for (let i = 1; i <= 5; i++) book.add('info', 'app', `m${i}`);
    off();
    book.add('info', 'app', 'm6');
    expect(book.entries().map((e) => e.message)).toEqual(['m4', 'm5', 'm6']);
    expect(book.entries(2).map((e) => e.message)).toEqual(['m5', 'm6']);
    expect(seen).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('masks known secrets in every message', () => {
    const book = new LogBook();
    book.setSecrets(['ms-abcdef123456']);
    expect(book.add('warn', 'server:x', 'auth failed for ms-abcdef123456').message).not.toContain('abcdef123456');
  });

  it('redacts names as messages are, and a name seen before with the secrets known now', () => {
    const book = new LogBook();
    const name = 'caller-with-tok-0123456789';
    expect(book.redactName('search_web')).toBe('search_web');
    expect(book.redactName(name)).toBe(name);
    book.setSecrets(['tok-0123456789']);
    expect(book.redactName(name)).not.toContain('0123456789');
    expect(book.redactName(name)).toBe(book.redact(name));
    // Many made-up names (an unknown tool's is whatever the caller sent) are not all kept.
    for (let i = 0; i < 2000; i++) expect(book.redactName(`tool_${i}`)).toBe(`tool_${i}`);
    expect(book.redactName(name)).not.toContain('0123456789');
  });

  it('keeps a bounded part of a huge message, with a marker, and masks a secret cut by the bound', () => {
    const book = new LogBook();
    const secret = 'sk-live-0123456789abcdefghij';
    book.setSecrets([secret]);
    const message = `${'a'.repeat(MAX_LOG_MESSAGE - 10)}${secret}${'b'.repeat(1_000_000)}`;
    const kept = book.add('warn', 'endpoint:x', message).message;
    expect(kept.length).toBeLessThan(MAX_LOG_MESSAGE + 100);
    expect(kept).toMatch(/… \(\d+ more characters not kept\)$/);
    expect(kept).not.toContain('sk-live-01');
  });

  it('rotates its file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-log-'));
    try {
      const book = new LogBook({ sinks: [rotatingFileSink(dir, 500, 3)] });
      for (let i = 0; i < 40; i++) book.add('info', 'app', `line ${i} ${'x'.repeat(40)}`);
      const files = fs.readdirSync(dir).sort();
      expect(files).toEqual(['xiaozhi-tray.log', 'xiaozhi-tray.log.1', 'xiaozhi-tray.log.2']);
      for (const file of files) expect(fs.statSync(path.join(dir, file)).size).toBeLessThanOrEqual(500);
      expect(fs.readFileSync(path.join(dir, 'xiaozhi-tray.log'), 'utf8')).toContain('line 39');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('log lines written as text', () => {
  it('cannot forge another line or drive the terminal', () => {
    const line = formatLogLine({
      seq: 1,
      time: 0,
      level: 'warn',
      source: 'endpoint:x',
      message: 'closed: bye\n1970-01-01T00:00:00.000Z ERROR [app] FORGED\u001b[2J\r',
    });
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('bye\\n1970');
    expect(line).not.toContain('\u001b');
  });
});

describe('call history', () => {
  /** A call's record: a failed call of tool t on server s unless `fields` say otherwise. */
  const call = (fields: Partial<Parameters<CallHistory['add']>[0]>): Parameters<CallHistory['add']>[0] => ({
    caller: 'home',
    tool: 't',
    originalTool: 't',
    server: 's',
    arguments: {},
    durationMs: 1,
    outcome: 'error',
    result: 'r',
    ...fields,
  });

  it('is bounded, trims arguments, and counts per tool beyond the ring', () => {
    const history = new CallHistory(2);
    for (let i = 0; i < 3; i++) history.add(call({ arguments: { v: 'x'.repeat(5000) }, outcome: i === 0 ? 'error' : 'ok' }));
    expect(history.list()).toHaveLength(2);
    expect(history.list()[0]!.arguments.length).toBeLessThan(2100);
    expect(history.countsByTool()).toEqual({ s: { t: { ok: 2, failed: 1, errorText: 0 } } });
  });

  it('hands out counts that stay as they were read while later calls are counted', () => {
    const history = new CallHistory(10);
    history.add(call({ caller: 'a', outcome: 'ok' }));
    const byTool = history.countsByTool();
    const byCaller = history.countsByCaller();
    history.add(call({ caller: 'a', outcome: 'error' }));
    history.add(call({ caller: 'a', result: 'Error: no such file', outcome: 'ok' }));
    expect(byTool).toEqual({ s: { t: { ok: 1, failed: 0, errorText: 0 } } });
    expect(byCaller).toEqual({ a: { ok: 1, failed: 0, errorText: 0 } });
    expect(history.countsByTool()).toEqual({ s: { t: { ok: 1, failed: 1, errorText: 1 } } });
    expect(history.countsByCaller()).toEqual({ a: { ok: 1, failed: 1, errorText: 1 } });
  });

  it('keeps bounded names and one count for every unknown tool, whatever the callers make up', () => {
    const history = new CallHistory(10);
    for (let i = 0; i < 500; i++) {
      const name = `${i}-${'n'.repeat(100_000)}`;
      history.add(call({ caller: 'x', tool: name, originalTool: name, server: '', result: 'Unknown tool' }));
    }
    for (const record of history.list()) expect(record.tool.length).toBeLessThan(300);
    expect(history.countsByTool()).toEqual({ '': { '(unknown tool)': { ok: 0, failed: 500, errorText: 0 } } });
  });
});

describe('backoff', () => {
  it('grows exponentially up to the cap with full jitter, and resets', () => {
    const max = new Backoff(1000, 60_000, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(() => max.next())).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    max.reset();
    expect(max.next()).toBe(1000);
    const min = new Backoff(1000, 60_000, () => 0);
    expect(min.next()).toBe(100);
  });

  it('never waits more than a fraction of the outage so far, so a short outage ends quickly', () => {
    let now = 0;
    const backoff = new Backoff(500, 60_000, () => 1, { outageFraction: 0.5, now: () => now });
    const delays: number[] = [];
    // The endpoint is down: every try fails at once, after the delay drawn before it.
    while (now < 5000) {
      const delay = backoff.next();
      delays.push(delay);
      now += delay;
    }
    // Whenever the endpoint comes back, the wait for the next try is at most half the outage.
    for (let i = 1, elapsed = delays[0]!; i < delays.length; elapsed += delays[i]!, i++) {
      expect(delays[i]).toBeLessThanOrEqual(Math.max(500, elapsed * 0.5));
    }
    // …and a long outage still backs off to the cap.
    now = 3_600_000;
    while (backoff.next() < 60_000) expect(backoff.attempts).toBeLessThan(20);
    backoff.reset();
    expect(backoff.next()).toBe(500);
  });
});

describe('stderr line decoding of runaway lines', () => {
  it('cuts a line past the limit and skips the rest of it, instead of starting lines with its middle', () => {
    const lines: string[] = [];
    const decoder = new LineDecoder((l) => lines.push(l), { maxLineBytes: 100 });
    decoder.push(Buffer.from(`${'a'.repeat(95)}SECRETKEY123456`));
    decoder.push(Buffer.from(`${'b'.repeat(300)}\nnext line\n`));
    expect(lines).toEqual([`${'a'.repeat(95)}SECRE …(line cut)`, 'next line']);
  });
});

describe('stderr line decoding', () => {
  it('keeps a character split across chunks whole, and falls back to GBK', () => {
    const lines: string[] = [];
    const decoder = new LineDecoder((l) => lines.push(l), { gbkFallback: true });
    const bytes = Buffer.from('你好，世界\r\n第二行\n');
    decoder.push(bytes.subarray(0, 4));
    decoder.push(bytes.subarray(4));
    decoder.push(Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0x0a])); // 你好 in GBK
    decoder.push(Buffer.from('no newline'));
    decoder.flush();
    expect(lines).toEqual(['你好，世界', '第二行', '你好', 'no newline']);
  });
});
