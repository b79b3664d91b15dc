import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(__dirname, '../../scripts/check-imports.mjs');
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A src/ tree made of the given files (path -> text). */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'imports-'));
  made.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

function check(root: string) {
  const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: run.status, said: run.stdout + run.stderr };
}

describe('the import check (npm run lint)', () => {
  it('passes a tree whose rooms import one way', () => {
    const root = tree({
      'main/core/a/x.ts': "import { y } from '../b/y';\nexport const x = y;\n",
      'main/core/b/y.ts': 'export const y = 1;\n',
    });
    expect(check(root)).toMatchObject({ status: 0 });
  });

  it('fails on a runtime import cycle, naming its files', () => {
    const root = tree({
      'main/core/a/x.ts': "import { y } from './y';\nexport const x = () => y;\n",
      'main/core/a/y.ts': "import { x } from './x';\nexport const y = () => x;\n",
    });
    const { status, said } = check(root);
    expect(status).toBe(1);
    expect(said).toContain('Import cycle (runtime imports) between: main/core/a/x.ts, main/core/a/y.ts');
  });

  it('lets a type-only cycle be (erased by the build), but not two rooms that import each other, types included', () => {
    const root = tree({
      'main/core/a/x.ts': "import type { Y } from '../b/y';\nexport type X = Y;\n",
      'main/core/b/y.ts': "import type { X } from '../a/x';\nexport type Y = { x?: X };\n",
    });
    const { status, said } = check(root);
    expect(status).toBe(1);
    expect(said).not.toContain('Import cycle');
    expect(said).toContain('Rooms a and b in main/core import each other');
  });
});
