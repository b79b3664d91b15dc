import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../src');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

const importsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] as string);

describe('layering (docs/ARCHITECTURE.md)', () => {
  it('keeps the engine and the CLI free of Electron, so they run headless', () => {
    for (const file of [...files(path.join(root, 'main/core')), ...files(path.join(root, 'cli'))]) {
      for (const spec of importsOf(file)) {
        expect(
          spec === 'electron' || spec.startsWith('electron/') || /main\/electron|renderer|preload/.test(spec),
          `${path.relative(root, file)} imports ${spec}`,
        ).toBe(false);
      }
    }
  });

  it('keeps the engine and the desktop shell free of the CLI (what both need lives in the engine)', () => {
    for (const file of [
      ...files(path.join(root, 'main/core')),
      ...files(path.join(root, 'main/electron')),
      path.join(root, 'main/index.ts'),
    ]) {
      for (const spec of importsOf(file)) {
        expect(/(^|\/)cli\//.test(spec), `${path.relative(root, file)} imports ${spec}`).toBe(false);
      }
    }
  });

  it('keeps the shared contract free of our other layers and of Node APIs', () => {
    for (const file of files(path.join(root, 'shared'))) {
      for (const spec of importsOf(file)) {
        expect(
          spec.startsWith('node:') || spec === 'electron' || /\.\.\/(main|renderer|preload)/.test(spec),
          `${path.relative(root, file)} imports ${spec}`,
        ).toBe(false);
      }
    }
  });
});
