import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { cliEnv } from '../helpers/cli-env';

const BIN = path.resolve(__dirname, '../../bin/xiaozhi-tray.js');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function check(config: unknown): Promise<{ code: number; stdout: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-check-'));
  dirs.push(dir);
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'check', '--config', file], { env: cliEnv() }, (error, stdout) => {
      resolve({ code: error ? Number(error.code) : 0, stdout });
    });
  });
}

describe('check: commands on PATH', () => {
  it('warns about a command that is not on PATH, and not about one that is', async () => {
    const result = await check({ mcpServers: { typo: { command: 'npx-typo-not-installed' }, node: { command: 'node', args: ['x.js'] } } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'warning: servers[0].command: server "typo": the command "npx-typo-not-installed" was not found on PATH',
    );
    expect(result.stdout).not.toContain('"node" was not found');
  });
});
