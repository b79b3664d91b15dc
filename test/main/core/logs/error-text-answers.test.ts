import { describe, expect, it } from 'vitest';

import { CallHistory } from '../../../../src/main/core/logs/call-history';
import { readsAsError } from '../../../../src/main/core/logs/error-text';

const call = (result: string) => ({
  caller: 'home',
  tool: 'weather',
  originalTool: 'weather',
  server: 'amap',
  arguments: { city: 'x' },
  durationMs: 3,
  outcome: 'ok' as const,
  result,
});

describe('an answer that is an error message sent as plain text (no isError)', () => {
  const errors = [
    'Error: city not found',
    'ERROR：参数错误',
    '错误：找不到这个城市',
    '  失败: 网络不通',
    'Traceback (most recent call last):\n  File "server.py", line 3, in <module>\nKeyError: \'x\'',
    "KeyError: 'city'",
    'requests.exceptions.ConnectionError: HTTPSConnectionPool(host=...)',
    'TypeError: Cannot read properties of undefined',
    '{"error": "invalid key"}',
    '{ "error": { "code": 401, "message": "unauthorized" } }',
    '[ERROR] the service is down',
    'Error executing tool weather: timed out',
  ];
  const ordinary = [
    '北京今天晴，气温 3 到 12 度。',
    'Error handling in Python: use try and except.',
    'The errors: none found.',
    'No error: the file was saved.',
    '错误码 0，成功',
    '{"errcode": 0, "errmsg": "ok"}',
    '{"error": null, "data": [1, 2]}',
    'Result: Error rate is 2%',
    '',
  ];

  it.each(errors)('is recorded as "answered with an error message": %j', (text) => {
    expect(readsAsError(text)).toBe(true);
    const history = new CallHistory(10);
    expect(history.add(call(text)).outcome).toBe('errorText');
    // Counted apart, as Activity counts it: neither a success nor a failure.
    expect(history.countsByTool()).toEqual({ amap: { weather: { ok: 0, failed: 0, errorText: 1 } } });
  });

  it.each(ordinary)('leaves an ordinary answer a success: %j', (text) => {
    expect(readsAsError(text)).toBe(false);
    expect(new CallHistory(10).add(call(text)).outcome).toBe('ok');
  });

  it('looks at the start only: an error word deep in a long answer is not a failure', () => {
    expect(readsAsError(`${'晴'.repeat(300)}\nError: x`)).toBe(false);
    expect(readsAsError(`${' '.repeat(250)}Error: x`)).toBe(false);
  });

  it('changes no other outcome (an error stays an error, a held call stays held)', () => {
    const history = new CallHistory(10);
    expect(history.add({ ...call('Error: x'), outcome: 'error' }).outcome).toBe('error');
    expect(history.add({ ...call('Error: x'), outcome: 'held' }).outcome).toBe('held');
  });
});
