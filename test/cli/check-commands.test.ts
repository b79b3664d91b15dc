import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { CLI_SCRIPT, cliEnv } from '../helpers/cli-env';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function check(config: unknown, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-check-'));
  dirs.push(dir);
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_SCRIPT, 'check', '--config', file], { env: cliEnv(env) }, (error, stdout) => {
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

describe('check: a missing uv, for a Chinese reader', () => {
  it('is worded in Chinese, with the mainland China mirror advice the window gives, and no astral.sh', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-check-path-'));
    dirs.push(empty);
    const result = await check(
      { mcpServers: { fetch: { command: 'uvx', args: ['mcp-server-fetch'] } } },
      { LANG: 'zh_CN.UTF-8', PATH: empty },
    );
    expect(result.code).toBe(0);
    // Before: "server "fetch": the command "uvx" needs uv, …; install it with: curl -LsSf https://astral.sh/uv/install.sh | sh".
    expect(result.stdout).toMatch(/服务“fetch”：命令“uvx”需要 uv/);
    // A Chinese reader who chose no download source has the mainland China mirrors already: the command uses them.
    expect(result.stdout).toContain('pipx install uv --index-url https://pypi.tuna.tsinghua.edu.cn/simple');
    expect(result.stdout).not.toMatch(/astral\.sh|not found on PATH|needs uv/);
  });
});
