import fs from 'node:fs';
import path from 'node:path';

import type { Metafile } from 'esbuild';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';

import { nodeBundle } from '../../scripts/bundle-options.mjs';
import { bundleInputs } from '../helpers/bundle-inputs';

/**
 * What ships is declared: the packages our code imports into the shipped bundles are package.json's
 * `dependencies` (scanners read them as the product's), everything else is a dev dependency, and
 * the lock file marks every package in a bundle as a production one. The bundles themselves carry
 * them all (scripts/build.mjs); scripts/pack.mjs leaves the field out of the published package.
 */
const ROOT = path.resolve(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean }>;
};

/** The shipped bundles' entries: the CLI, its watchdog, Electron's main and preload, the window. */
const ENTRIES = ['src/cli/index.ts', 'src/cli/watchdog.ts', 'src/main/index.ts', 'src/preload/index.ts', 'src/renderer/main.tsx'];
const PACKAGE_DIR = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//;
const packageName = (dir: string) => dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length);

let inputs: Metafile['inputs'] = {};
beforeAll(async () => {
  // Resolved as scripts/build.mjs (and, for the window, Vite) resolve them; only the inputs are looked at, nothing is written.
  for (const entry of ENTRIES) {
    const window = entry.startsWith('src/renderer');
    const options = window
      ? {
          bundle: true,
          platform: 'browser' as const,
          loader: { '.png': 'file' as const, '.svg': 'file' as const, '.woff2': 'file' as const },
        }
      : nodeBundle;
    inputs = { ...inputs, ...(await bundleInputs(ROOT, entry, options)) };
  }
}, 120_000);

describe('dependencies', () => {
  it('lists as dependencies exactly the packages our code imports into what ships', () => {
    const imported = new Set<string>();
    for (const [file, input] of Object.entries(inputs)) {
      if (!file.startsWith('src/')) continue;
      for (const { path: target } of input.imports) {
        const dir = PACKAGE_DIR.exec(target)?.[1];
        if (dir) imported.add(packageName(dir));
      }
    }
    expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies).sort());
    for (const name of imported) expect(manifest.devDependencies, name).not.toHaveProperty(name);
  });

  it('has the lock file count every package in a bundle as a production one', () => {
    const bundled = new Set(Object.keys(inputs).flatMap((file) => PACKAGE_DIR.exec(file)?.[1] ?? []));
    expect(bundled.size).toBeGreaterThan(30);
    const devOnly = [...bundled].filter((dir) => lock.packages[dir]?.dev === true);
    expect(devOnly).toEqual([]);
    for (const dir of bundled) expect(lock.packages, dir).toHaveProperty([dir]);
  });
});

/** The keys GitHub documents for dependabot.yml (docs.github.com, "Dependabot options reference"): a typo is refused. */
const UPDATE_KEYS = new Set([
  'package-ecosystem',
  'directory',
  'directories',
  'schedule',
  'allow',
  'assignees',
  'commit-message',
  'cooldown',
  'exclude-paths',
  'groups',
  'ignore',
  'insecure-external-code-execution',
  'labels',
  'milestone',
  'open-pull-requests-limit',
  'pull-request-branch-name',
  'rebase-strategy',
  'registries',
  'reviewers',
  'target-branch',
  'vendor',
  'versioning-strategy',
]);
const GROUP_KEYS = new Set(['applies-to', 'dependency-type', 'patterns', 'exclude-patterns', 'update-types']);
const INTERVALS = new Set(['daily', 'weekly', 'monthly', 'quarterly', 'semiannually', 'yearly', 'cron']);

interface Update {
  'package-ecosystem': string;
  directory: string;
  schedule: { interval: string };
  groups?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

describe('the dependency update bot (.github/dependabot.yml)', () => {
  const config = yaml.load(fs.readFileSync(path.join(ROOT, '.github', 'dependabot.yml'), 'utf8')) as { version: number; updates: Update[] };

  it('updates npm packages and GitHub Actions weekly, grouped', () => {
    expect(config.version).toBe(2);
    expect(config.updates.map((u) => u['package-ecosystem']).sort()).toEqual(['github-actions', 'npm']);
    for (const update of config.updates) {
      expect(update.directory).toBe('/');
      expect(update.schedule.interval).toBe('weekly');
      expect(Object.keys(update.groups ?? {}).length, update['package-ecosystem']).toBeGreaterThan(0);
    }
    const npm = config.updates.find((u) => u['package-ecosystem'] === 'npm') as Update;
    // What ships and the tooling are updated apart: a shipped update is the one users get.
    expect(Object.values(npm.groups ?? {}).map((g) => g['dependency-type'])).toEqual(['production', 'development']);
  });

  it('uses only keys and values GitHub knows', () => {
    for (const update of config.updates) {
      for (const key of Object.keys(update)) expect(UPDATE_KEYS, `updates[].${key}`).toContain(key);
      expect(INTERVALS).toContain(update.schedule.interval);
      for (const [name, group] of Object.entries(update.groups ?? {})) {
        for (const key of Object.keys(group)) expect(GROUP_KEYS, `groups.${name}.${key}`).toContain(key);
        for (const type of (group['update-types'] as string[] | undefined) ?? []) expect(['major', 'minor', 'patch']).toContain(type);
        if (group['dependency-type'] !== undefined) expect(['production', 'development']).toContain(group['dependency-type']);
      }
    }
  });
});
