import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { CliHarness, waitForText } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

describe('a package name npm does not know', () => {
  it('is said once as "not found on the registry", not retried', async () => {
    const dir = h.tempDir();
    // What npx prints for a typo'd package (npm 10/11), then exits 1.
    const npx = path.join(dir, 'fake-npx.js');
    fs.writeFileSync(
      npx,
      [
        "process.stderr.write('npm error code E404\\n');",
        "process.stderr.write('npm error 404 Not Found - GET https://registry.npmjs.org/howtocok-mcp - Not found\\n');",
        "process.stderr.write('npm error 404\\n');",
        'process.stderr.write("npm error 404  \'howtocok-mcp@*\' is not in this registry.\\n");',
        'process.exit(1);',
      ].join('\n'),
    );
    const config = h.writeConfig(
      { servers: [{ name: 'cook', transport: 'stdio', command: process.execPath, args: [npx] }] },
      'tray.json',
      dir,
    );
    const run = h.spawn(['run', '--config', config]);
    // The failure's one log line says what follows it: a retry ("restarting in 0.5 s") or none. Once
    // "not retrying" is said the server is failed, with no restart timer left to fire.
    // Before: "restarting in 0.5 s", "2.0 s"… until the crash loop gave up.
    await waitForText(
      run.stdout,
      /\[server:cook\] "howtocok-mcp" was not found on the npm registry: check the package name.*; not retrying until it is restarted/,
      60_000,
    );
    run.child.kill('SIGTERM');
    await run.exit;
    expect(run.stdout()).not.toMatch(/\[server:cook\].*restarting in/);
  }, 120_000);
});

describe('a registry npx cannot reach', () => {
  it('is said as the registry being unreachable, with the mirror setting as the way out', async () => {
    const dir = h.tempDir();
    // What npx prints when registry.npmjs.org cannot be resolved (no network, or a blocked name), then exits 1.
    const npx = path.join(dir, 'fake-npx.js');
    fs.writeFileSync(
      npx,
      [
        "process.stderr.write('npm error code ENOTFOUND\\n');",
        "process.stderr.write('npm error syscall getaddrinfo\\n');",
        "process.stderr.write('npm error errno ENOTFOUND\\n');",
        "process.stderr.write('npm error network request to https://registry.npmjs.org/some-mcp failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org\\n');",
        "process.stderr.write('npm error network This is a problem related to network connectivity.\\n');",
        'process.exit(1);',
      ].join('\n'),
    );
    const config = h.writeConfig(
      { servers: [{ name: 'net', transport: 'stdio', command: process.execPath, args: [npx] }] },
      'tray.json',
      dir,
    );
    const run = h.spawn(['run', '--config', config]);
    // Before: "the program exited before it was ready, with exit code 1: npm error network request to …".
    await waitForText(run.stdout, 'could not reach the package registry (registry.npmjs.org)', 60_000);
    run.child.kill('SIGTERM');
    await run.exit;
    expect(run.stdout()).toContain('choose the mainland China mirror');
  }, 120_000);
});
