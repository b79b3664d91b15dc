import { describe, it } from 'vitest';

import { fuzzTheRunningCli } from './hostile-fuzz';

// The long run (1,000 frames, 200 requests) is a quality run: `npm run quality:fuzz`.
describe('the running CLI under hostile input', () => {
  it('lives through 100 malformed frames and 20 malformed HTTP requests, answering every valid call in between', async () => {
    await fuzzTheRunningCli({ frames: 100, requests: 20 });
  });
});
