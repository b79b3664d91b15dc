/**
 * The one factor every timing a test depends on is multiplied by: wait timeouts (`waitFor`, fake
 * xiaozhi's responses, CLI output), grace periods, idle times and the tests' own timeouts.
 *
 * `TEST_TIME_SCALE=3 npm test` on a slow CI runner. Unset, vitest.config.mts picks it from this
 * machine's load at the start and hands it to every worker, so one run agrees on one factor. The
 * values it scales are already generous for a quiet machine with two CPU-burning processes beside
 * the suite. Outside Vitest (benchmarks) it is 1.
 */
export const TIME_SCALE = Number(process.env.TEST_TIME_SCALE) > 0 ? Number(process.env.TEST_TIME_SCALE) : 1;

/** `ms` on this machine. */
export function scaled(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}
