import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

const README = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

/** The first lines under a heading: what a reader sees before scrolling. */
function firstScreen(heading: string, lines = 12): string {
  const all = README.split('\n');
  const at = all.findIndex((line) => line.startsWith(heading));
  expect(at, `README has no "${heading}"`).toBeGreaterThanOrEqual(0);
  return all.slice(at + 1, at + 1 + lines).join('\n');
}

describe('the README, for someone without Node.js in mainland China', () => {
  for (const heading of ['## The desktop app', '## Install the headless CLI']) {
    it(`says near the top of "${heading}" that Node.js and uv come with the app, and that the mirror setting helps`, () => {
      const top = firstScreen(heading);
      expect(top).toMatch(/Node\.js and uv|Node\.js or uv/);
      expect(top).toMatch(/mainland China/);
      expect(top).toMatch(/Download sources/);
    });
  }
});
