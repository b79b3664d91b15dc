import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach } from 'vitest';

/**
 * Temporary folders for a test file (`<prefix>…` in the system's temp folder), removed after each
 * test: `const tempDir = tempDirs('xt-store-')`. Call it above the file's own afterEach: Vitest runs
 * after-hooks last registered first, so the folders go once what writes into them has stopped.
 */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}
