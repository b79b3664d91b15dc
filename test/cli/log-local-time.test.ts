import { PassThrough } from 'node:stream';

import { afterEach, describe, expect, it } from 'vitest';

import { logSink } from '../../src/cli/log-output';
import { translator } from '../../src/shared/i18n/translate';

const tz = process.env.TZ;
afterEach(() => {
  if (tz === undefined) delete process.env.TZ;
  else process.env.TZ = tz;
});

function lineAt(time: number, format: 'text' | 'json'): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  logSink(out, 'info', format, { language: 'zh-CN', t: translator('zh-CN') }).write({
    time,
    level: 'info',
    source: 'app',
    message: 'hello',
  } as never);
  return text;
}

describe("the console log's time", () => {
  it('is the local time with its offset in a text line (TZ=Asia/Shanghai), and stays UTC ISO 8601 in JSON', () => {
    process.env.TZ = 'Asia/Shanghai';
    const at = Date.UTC(2026, 11, 7, 6, 5, 4, 321);
    expect(lineAt(at, 'text')).toMatch(/^2026-12-07T14:05:04\.321\+08:00 /);
    expect(JSON.parse(lineAt(at, 'json')).time).toBe('2026-12-07T06:05:04.321Z');
  });
});
