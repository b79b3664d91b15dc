import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { nodeBundle } from '../../scripts/bundle-options.mjs';
import { scaled } from '../helpers/time-scale';

/**
 * What loading the headless CLI costs before it does anything: every zod schema built at load stays
 * in an idle bridge's memory (issue 35). The MCP SDK's own (about 1,040) and the config's (about 600,
 * read when the config is parsed) are built; the window's contract, the records' and the catalogue's
 * (about 1,200 more) wait for their first use.
 */
const ROOT = path.resolve(__dirname, '../..');
let dir = '';
let cli = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-load-cost-'));
  cli = path.join(dir, 'index.js');
  await build({
    ...nodeBundle,
    external: [...(nodeBundle.external ?? []), 'openai'],
    entryPoints: [path.join(ROOT, 'src/cli/index.ts')],
    outfile: cli,
    sourcemap: false,
    logLevel: 'error',
  });
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('loading the headless CLI', () => {
  it('builds the schemas it reads at start, not the window contract or the records', () => {
    // zod calls the global config's postProcessor once per schema (and check) it constructs.
    const count = `let built = 0; globalThis.__zod_globalConfig = { postProcessor: () => built++ };
      process.on('exit', () => process.stderr.write('built ' + built + '\\n'));
      process.argv = [process.argv[0], ${JSON.stringify(cli)}, '--version'];
      require(${JSON.stringify(cli)});`;
    const result = spawnSync(process.execPath, ['-e', count], { encoding: 'utf8', timeout: scaled(60_000) });
    const built = Number(/built (\d+)/.exec(result.stderr)?.[1]);
    expect(result.status, result.stderr).toBe(0);
    expect(built).toBeGreaterThan(1000);
    expect(built).toBeLessThanOrEqual(2000);
  });
});
