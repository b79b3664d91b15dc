import { scaled } from './time-scale';

/**
 * Waits until `condition` holds, checking on every turn of the event loop (not by sleeping a
 * guessed amount); fails with `what` after `timeoutMs` (times the machine's TIME_SCALE). A function
 * for `what` is called only then, to say what the moment of failure looked like.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what: string | (() => string) = 'condition',
): Promise<void> {
  const limit = scaled(timeoutMs);
  const deadline = Date.now() + limit;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limit} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
