import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { corkForThisTurn } from '../../../../src/main/core/io/cork';
import { waitFor } from '../../../helpers/wait';

/** A real stream that records how its writes reach the sink: one entry per system-call-like flush. */
function recordingStream(): { stream: Writable; flushes: string[][] } {
  const flushes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      flushes.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      flushes.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      callback();
    },
  });
  return { stream, flushes };
}

const write = (stream: Writable, text: string) => {
  corkForThisTurn(stream);
  stream.write(text);
};
const nextTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describe('corkForThisTurn', () => {
  it('sends a lone write of a turn at once', () => {
    const { stream, flushes } = recordingStream();
    write(stream, 'a');
    expect(flushes).toEqual([['a']]);
  });

  it('sends a burst as the first write, then the rest together when the turn ends', async () => {
    const { stream, flushes } = recordingStream();
    write(stream, 'a');
    write(stream, 'b');
    write(stream, 'c');
    expect(flushes).toEqual([['a']]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(flushes).toEqual([['a'], ['b', 'c']]);
  });

  it('holds even the first write of a turn that follows a busy one, and writes at once again when it quietens', async () => {
    const { stream, flushes } = recordingStream();
    write(stream, 'a');
    write(stream, 'b');
    await new Promise<void>((resolve) => setImmediate(resolve));
    // The turn right after a busy one: all of its writes leave together.
    write(stream, 'c');
    write(stream, 'd');
    expect(flushes).toEqual([['a'], ['b']]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(flushes).toEqual([['a'], ['b'], ['c', 'd']]);
    // A quiet stream again (past the busy window, by the clock the cork reads): a lone write goes at once.
    const busyEnds = performance.now() + 2;
    await waitFor(() => performance.now() > busyEnds, 1000, 'the busy window to pass');
    await nextTurn();
    write(stream, 'e');
    expect(flushes.at(-1)).toEqual(['e']);
  });
});
