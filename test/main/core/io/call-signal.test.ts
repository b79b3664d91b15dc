import { describe, expect, it } from 'vitest';

import { CallAbort } from '../../../../src/main/core/io/call-signal';

describe('CallAbort', () => {
  it('calls each listener still added, once, in the order added, with the reason set', () => {
    const signal = new CallAbort();
    const heard: string[] = [];
    const a = () => heard.push(`a:${String(signal.reason)}`);
    const b = () => heard.push('b');
    const c = () => heard.push('c');
    const d = () => heard.push('d');
    signal.addEventListener('abort', a);
    signal.addEventListener('abort', b);
    signal.addEventListener('abort', c);
    signal.removeEventListener('abort', a);
    signal.addEventListener('abort', d);
    signal.removeEventListener('abort', c);
    signal.abort('stop');
    signal.abort('again');
    expect(heard).toEqual(['b', 'd']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');
  });

  it('forgets a lone listener removed before the abort, and takes a new one in its place', () => {
    const signal = new CallAbort();
    const heard: string[] = [];
    const first = () => heard.push('first');
    signal.addEventListener('abort', first);
    signal.removeEventListener('abort', first);
    signal.addEventListener('abort', () => heard.push('second'));
    signal.abort('stop');
    expect(heard).toEqual(['second']);
  });
});
