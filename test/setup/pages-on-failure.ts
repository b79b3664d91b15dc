import { beforeEach } from 'vitest';

import { openPagesText } from '../helpers/headless-window';

/**
 * When a window test fails (a text that never showed, most often), what its pages showed then is
 * printed beside the error: a wait that timed out once in a full run and never alone is then
 * readable from the run's output instead of guessed at.
 */
beforeEach((context) => {
  context.onTestFailed(async () => {
    for (const page of await openPagesText()) console.error(`[page at failure] ${page}`);
  });
});
