import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';

import {
  combinedInstructions,
  MAX_INSTRUCTIONS,
  MAX_SERVER_INSTRUCTIONS,
} from '../../../../../src/main/core/local-server/passthrough/instructions';
import { forwardedLog, logLine, LogLineBudget, mostVerbose, wants } from '../../../../../src/main/core/local-server/passthrough/logging';
import { LogBook } from '../../../../../src/main/core/logs/log-book';

describe("servers' log messages", () => {
  it('reach a session at or above the level it asked, and the server is asked the most verbose of them', () => {
    expect(wants(undefined, 'emergency')).toBe(false);
    expect(wants('warning', 'error')).toBe(true);
    expect(wants('warning', 'info')).toBe(false);
    expect(mostVerbose([undefined, 'error', 'info', 'warning'])).toBe('info');
    expect(mostVerbose([undefined])).toBeUndefined();
  });

  it('name their server, and are bounded for the client and far more for our log', () => {
    const huge = 'x'.repeat(200_000);
    const forwarded = forwardedLog('notes', { level: 'info', logger: 'db', data: { huge } });
    expect(forwarded.logger).toBe('notes/db');
    expect(typeof forwarded.data === 'string' && forwarded.data.length < 70_000).toBe(true);
    expect(forwardedLog('notes', { level: 'info', data: { a: 1 } })).toEqual({ level: 'info', logger: 'notes', data: { a: 1 } });
    expect(logLine('notes', { level: 'info', data: huge }).length).toBeLessThan(700);
    // The logger's name too: it went to every client whole (1 MB a message).
    expect(forwardedLog('notes', { level: 'info', logger: huge, data: 'x' }).logger?.length).toBeLessThan(300);
  });

  it('never leave the start of a known secret in our log where the line is cut', () => {
    const secret = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0';
    const book = new LogBook();
    book.setSecrets([secret]);
    const log = book.logger('test');
    for (let before = 440; before <= 500; before += 3) {
      log.debug(logLine('notes', { level: 'info', data: `${'x '.repeat(before / 2)}${before % 2 ? 'y' : ''}${secret} tail` }));
      log.debug(logLine('notes', { level: 'info', logger: `${'l'.repeat(before - 440)}${secret}`, data: 'said' }));
    }
    const written = book.entries().map((e) => e.message);
    expect(written.filter((m) => m.includes(secret.slice(0, 6)))).toEqual([]);
  });

  it('are written to our log at a bounded rate per server, then counted', () => {
    const budget = new LogLineBudget(2, 1000);
    expect([0, 1, 2, 3].map(() => budget.take('a', 0).log)).toEqual([true, true, false, false]);
    expect(budget.take('b', 10).log).toBe(true);
    expect(budget.take('a', 1000)).toEqual({ log: true, skipped: 2 });
  });
});

describe("servers' instructions", () => {
  const server = (name: string, text: string | undefined) => ({ name, client: { getInstructions: () => text } as unknown as Client });

  it('are headed with their server, each and all bounded, servers past the bound named', () => {
    expect(combinedInstructions([server('a', undefined), server('b', '  ')])).toBeUndefined();
    expect(combinedInstructions([server('a', 'Use a.'), server('b', 'Use b.')])).toBe('## a\nUse a.\n\n## b\nUse b.');
    const many = Array.from({ length: 10 }, (_, i) => server(`s${i}`, 'y'.repeat(5_000)));
    const text = combinedInstructions(many) as string;
    expect(text.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS + 600);
    expect(text).toContain(`## s0\n${'y'.repeat(MAX_SERVER_INSTRUCTIONS)}…`);
    expect(text).toMatch(/The instructions of s\d, .*s9 were left out/);
  });
});
