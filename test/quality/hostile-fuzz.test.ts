import { describe, it } from 'vitest';

import { fuzzTheRunningCli } from '../cli/hostile-fuzz';
import { scaled } from '../helpers/time-scale';

// Quality run (`npm run quality:fuzz`); `npm test` sends a tenth of this (test/cli/hostile-fuzz.test.ts).
describe('the running CLI under hostile input, at length', () => {
  it(
    'lives through 1,000 malformed frames and 200 malformed HTTP requests, answering every valid call in between',
    async () => {
      await fuzzTheRunningCli({ frames: 1000, requests: 200 });
    },
    scaled(120_000),
  );
});
