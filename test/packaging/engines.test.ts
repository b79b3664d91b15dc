import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { nodeBundle } from '../../scripts/bundle-options.mjs';
import { bundleInputs } from '../helpers/bundle-inputs';

/**
 * What needs which Node: the headless CLI, the build and the tests run on the system's Node
 * (`engines`, 20.19+, what Vite needs); the desktop app runs on Electron 45's own Node 22, which is
 * where electron-store 12 and conf (Node 22 only) live. Development names Node 22 (installing
 * Electron 45 and electron-builder's tools asks for 22.12+), as CI uses.
 */
const ROOT = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

describe('Node versions', () => {
  it('engines names what the code run on the system Node needs', () => {
    expect(pkg.engines.node).toBe('>=20.19');
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true);
  });

  // The CLI bundle is minified (no module comments left to read): its inputs, resolved as scripts/build.mjs resolves them.
  it('keeps the Node 22 only packages out of the CLI: they run inside Electron only', async () => {
    const options = { ...nodeBundle, external: [...(nodeBundle.external ?? []), 'openai'] };
    const inputsOf = async (entry: string) => Object.keys(await bundleInputs(ROOT, entry, options)).join('\n');
    const cli = await inputsOf('src/cli/index.ts');
    const main = await inputsOf('src/main/index.ts');
    for (const only22 of ['node_modules/electron-store/', 'node_modules/conf/']) {
      expect(cli, only22).not.toContain(only22);
      expect(main, only22).toContain(only22);
    }
  }, 120_000);

  it('the Node bundles are ASCII, so V8 holds their source at one byte per character', () => {
    for (const bundle of ['cli', 'main']) {
      const code = fs.readFileSync(path.join(ROOT, 'out', bundle, 'index.js'), 'utf8');
      expect(code.match(/[^\x00-\x7f]/g) ?? [], bundle).toEqual([]);
    }
  });

  it('the README and CI name Node 22 for development', () => {
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toMatch(/Node\.js 22/);
    for (const workflow of ['ci.yml', 'release.yml']) {
      expect(fs.readFileSync(path.join(ROOT, '.github', 'workflows', workflow), 'utf8')).toMatch(/node-version: 22\b/);
    }
  });
});
