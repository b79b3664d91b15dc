import fs from 'node:fs';
import path from 'node:path';

import { validateWorkflow } from '@action-validator/core';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';

/**
 * The GitHub workflows, checked offline against GitHub's workflow schema (action-validator, the
 * schemastore schema compiled to WebAssembly) and for what they must do.
 */
const ROOT = path.resolve(__dirname, '../..');
const DIR = path.join(ROOT, '.github', 'workflows');
const read = (name: string) => fs.readFileSync(path.join(DIR, name), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  env?: Record<string, string>;
  strategy: { matrix: { include: Record<string, string>[] } };
  steps: Step[];
}

describe('GitHub workflows', () => {
  it('are valid workflow files', () => {
    const files = fs.readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));
    expect(files.sort()).toEqual(['ci.yml', 'docker.yml', 'release.yml']);
    for (const file of files) {
      const state = validateWorkflow(read(file));
      expect(state.errors, `${file}: ${JSON.stringify(state.errors, null, 2)}`).toEqual([]);
    }
  });

  it('the validator does catch a broken workflow', () => {
    const broken = read('ci.yml').replace('runs-on: ${{ matrix.os }}', 'runs_on: ${{ matrix.os }}');
    expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
    expect(validateWorkflow('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: 3\n').errors.length).toBeGreaterThan(0);
  });

  it('ci runs lint, types and every test on Linux (Xvfb), Windows and macOS, then builds, smoke-tests and uploads the installers', () => {
    const workflow = yaml.load(read('ci.yml')) as { on: Record<string, unknown>; jobs: { test: Job } };
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
    const job = workflow.jobs.test;
    const matrix = job.strategy.matrix.include;
    expect(matrix.map((m) => m.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest']);
    expect(matrix.find((m) => m.os === 'ubuntu-latest')!.run).toMatch(/^xvfb-run/);
    // The Electron end-to-end tests may not skip there.
    expect(job.env?.XIAOZHI_E2E_REQUIRE_ELECTRON).toBe('1');
    const runs = job.steps.map((s) => s.run ?? '');
    const at = (pattern: RegExp) => runs.findIndex((r) => pattern.test(r));
    expect(at(/^npm ci/)).toBeGreaterThanOrEqual(0);
    expect(runs.some((r) => /ELECTRON_SKIP_BINARY_DOWNLOAD/.test(r))).toBe(false);
    expect(at(/npm run lint/)).toBeGreaterThan(at(/^npm ci/));
    expect(at(/npm run typecheck/)).toBeGreaterThan(at(/^npm ci/));
    expect(at(/\bnpm test$/)).toBeGreaterThan(at(/^npm ci/));
    expect(at(/electron-builder \$\{\{ matrix.target \}\}/)).toBeGreaterThan(at(/\bnpm test$/));
    expect(at(/npm run smoke/)).toBeGreaterThan(at(/electron-builder/));
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(String(upload?.with?.path)).toMatch(/\*\.AppImage/);
    expect(job.steps.find((s) => s.uses?.startsWith('actions/setup-node'))?.with?.['node-version']).toBe(22);
  });

  it('release publishes the npm package on a version tag, with provenance, from the tarball pack:npm makes', () => {
    type NpmJob = Job & { needs: string; if: string; permissions: Record<string, string> };
    const workflow = yaml.load(read('release.yml')) as { on: { push: { tags: string[] } }; jobs: { npm: NpmJob } };
    expect(workflow.on.push.tags).toEqual(['v*']);
    const job = workflow.jobs.npm;
    expect(job.if).toMatch(/refs\/tags\/v/);
    // Provenance needs the OIDC token; the release upload needs contents: write.
    expect(job.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    const runs = job.steps.map((s) => s.run ?? '');
    const at = (pattern: RegExp) => runs.findIndex((r) => pattern.test(r));
    expect(at(/scripts\/pack\.mjs/)).toBeGreaterThan(at(/npm run typecheck/));
    const publish = runs[at(/npm publish/)]!;
    expect(publish).toMatch(/"\$TARBALL" --provenance --access public/);
    expect(at(/npm publish/)).toBeGreaterThan(at(/scripts\/pack\.mjs/));
    expect(at(/gh release upload/)).toBeGreaterThan(at(/npm publish/));
  });

  it('the README claims no published package: its install line installs a release tarball or a checkout', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const install = readme.split('\n').filter((line) => /^\s*npm (install|i) -g/.test(line));
    expect(install.length).toBeGreaterThan(0);
    // The command itself, not its comment, names the tarball.
    for (const line of install) expect(line.split('#')[0], line).toMatch(/\.tgz/);
  });

  it('the scripts they run exist', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const script of ['lint', 'typecheck', 'test', 'smoke']) expect(pkg.scripts[script], script).toBeTypeOf('string');
  });
});
