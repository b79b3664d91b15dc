import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The memory this process still holds once garbage is collected (heap in use plus Buffers), in MB.
 * Resident memory also counts garbage not yet collected, which on a loaded machine lags by tens of
 * MB; a bound on what is kept must not depend on when the collector last ran.
 */
export function settledMemoryMb(): number {
  collect();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 1e6;
}

let gc: (() => void) | undefined;

function collect(): void {
  if (!gc) {
    // Tests run without --expose-gc; the flag set at run time gives a fresh context its gc().
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
}
