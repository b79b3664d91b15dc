import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { commandWarnings } from '../../../../src/main/core/config/command-warnings';
import { CHINA_MIRRORS } from '../../../../src/shared/mirrors';
import { installCommand } from '../../../../src/shared/runtime-need';
import { SettingsSchema } from '../../../../src/shared/settings';
import { FIXTURE, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

const tempDir = tempDirs('xt-runtime-need-');
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

const server = () => harness!.bridge.state().servers[0]!;

/** A PATH with nothing on it but, when asked, `node` (this test's Node), so no npx, node or uv is found otherwise. */
function pathWith(node: boolean): string {
  const dir = tempDir();
  if (node) fs.symlinkSync(process.execPath, path.join(dir, 'node'));
  return dir;
}

describe('a server whose runtime is missing, headless', () => {
  it('fails at once with the install command for this OS, and is not retried', async () => {
    const env = { ...process.env, PATH: pathWith(false) };
    harness = makeBridge(
      { servers: [{ name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] }] },
      undefined,
      { env },
    );
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 10_000, 'the failure');
    expect(server().lastErrorCause).toEqual({
      code: 'server.runtimeMissing',
      params: {
        runtime: 'Node.js',
        command: 'npx',
        install: installCommand('node', process.platform),
        installChina: installCommand('node', process.platform, CHINA_MIRRORS, process.arch),
        advice: 'official',
      },
    });
    expect(server().lastError).toContain(`install it with: ${installCommand('node', process.platform)}`);
    expect(server().restarts).toBe(0);
  });

  it("runs with the user's own runtime when its program is on PATH, and says so", async () => {
    const env = { ...process.env, PATH: pathWith(true) };
    harness = makeBridge(
      { servers: [{ name: 'fx', transport: 'stdio', command: 'node', args: [FIXTURE], env: { FIXTURE_NAME: 'fx' } }] },
      undefined,
      { env },
    );
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(server().state).toBe('running');
    expect(server().runtime).toEqual({ name: 'node', from: 'yours' });
  });

  it('`check` warns with the install command', () => {
    const settings = SettingsSchema.parse({ servers: [{ name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] }] });
    const [warning] = commandWarnings(settings, { PATH: pathWith(false) });
    expect(warning?.message).toBe(
      `server "time": the command "uvx" needs uv, which was not found on PATH here; install it with: ${installCommand('uv', process.platform)} (or start with --fetch-runtimes, and the app fetches it itself, from the config's download sources)`,
    );
  });

  it("with the mainland China mirrors chosen, the install commands fetch from them, not from GitHub or the installers' sites", async () => {
    const mirrors = { preset: 'china' as const };
    harness = makeBridge(
      {
        mirrors,
        servers: [
          { name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] },
          { name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] },
        ],
      },
      undefined,
      { env: { ...process.env, PATH: pathWith(false) } },
    );
    harness.bridge.start();
    const byName = (name: string) => harness!.bridge.state().servers.find((s) => s.name === name)!;
    await waitFor(() => byName('time').state === 'failed' && byName('fs').state === 'failed', 10_000, 'both failures');
    const uvInstall = byName('time').lastErrorCause?.params.install;
    const nodeInstall = String(byName('fs').lastErrorCause?.params.install);
    if (process.platform === 'win32') expect(uvInstall).toBe('pip install uv -i https://pypi.tuna.tsinghua.edu.cn/simple');
    else expect(uvInstall).toBe('pipx install uv --index-url https://pypi.tuna.tsinghua.edu.cn/simple');
    expect(nodeInstall).toContain('https://registry.npmmirror.com/-/binary/node/v22.12.0/node-v22.12.0');
    expect(`${uvInstall} ${nodeInstall}`).not.toMatch(/github|astral\.sh|nodejs\.org|brew |winget/);
    // `check` says the same.
    const settings = SettingsSchema.parse({ mirrors, servers: [{ name: 'time', transport: 'stdio', command: 'uvx', args: ['x'] }] });
    expect(commandWarnings(settings, { PATH: pathWith(false) })[0]?.message).toContain(`install it with: ${uvInstall} (`);
  });
});
