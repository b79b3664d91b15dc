import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { nodeBundle } from '../../scripts/bundle-options.mjs';
import { APP_VERSION } from '../../src/main/core/system/version';
import { waitFor } from '../helpers/wait';
import { CliHarness, fixtureEntry } from './cli-harness';

/**
 * One source for the version: package.json. The CLI is bundled here as scripts/build.mjs does (its options), but
 * with package.json saying another version, so a version written anywhere else in the code shows.
 */
const ROOT = path.resolve(__dirname, '../..');
const PACKAGE_JSON = path.join(ROOT, 'package.json');
const OTHER_VERSION = '7.8.9-one-source';
const h = new CliHarness();
let dir = '';
let cli = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-version-'));
  cli = path.join(dir, 'out', 'cli', 'index.js');
  await build({
    entryPoints: [path.join(ROOT, 'src/cli/index.ts')],
    outfile: cli,
    ...nodeBundle,
    sourcemap: false,
    logLevel: 'error',
    plugins: [
      ...(nodeBundle.plugins ?? []),
      {
        name: 'another-version',
        setup(b) {
          b.onLoad({ filter: /[\\/]package\.json$/ }, (args) =>
            path.resolve(args.path) === PACKAGE_JSON
              ? {
                  contents: JSON.stringify({ ...JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')), version: OTHER_VERSION }),
                  loader: 'json',
                }
              : undefined,
          );
        },
      },
    ],
  });
}, 120_000);

afterEach(() => h.cleanup());
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the version', () => {
  it("is package.json's, read from source too", () => {
    expect(APP_VERSION).toBe(JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')).version);
  });

  it('--version, the serverInfo xiaozhi gets and the clientInfo every server gets all come from package.json', async () => {
    const version = await h.finished(['--version'], { command: [process.execPath, cli] });
    expect(version, version.err).toMatchObject({ code: 0, out: `${OTHER_VERSION}\n` });

    const infoFile = path.join(h.tempDir(), 'client-info.json');
    const config = h.writeConfig({ mcpServers: { fx: fixtureEntry({ FIXTURE_CLIENT_INFO_FILE: infoFile }) } });
    const call = await h.finished(['call', '--config', config, 'echo', '--args', '{"text":"v"}'], { command: [process.execPath, cli] });
    expect(call.code, call.err).toBe(0);
    // `call` plays xiaozhi: its first step prints the serverInfo the bridge answered initialize with.
    expect(call.err).toContain(`1. initialize → xiaozhi-tray ${OTHER_VERSION} (protocol`);
    await waitFor(() => fs.existsSync(infoFile), 15_000, 'the fixture to write the clientInfo it got');
    expect(JSON.parse(fs.readFileSync(infoFile, 'utf8'))).toEqual({ name: 'xiaozhi-tray', version: OTHER_VERSION });
  });
});
