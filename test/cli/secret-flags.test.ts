import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { loadConfigFile } from '../../src/main/core/config/load-config';
import { clientToken } from '../../src/main/core/local-server/client-tokens';
import { scaled } from '../helpers/time-scale';
import { waitFor } from '../helpers/wait';
import { CliHarness, TOKEN, waitForText } from './cli-harness';

/** Tokens never on the command line: every user of the computer reads it in `ps`. */
const h = new CliHarness();
afterEach(() => h.cleanup());

const MCP_TOKEN = 'file-mcp-token-0123456789abcdef';
const ENDPOINT = `wss://api.xiaozhi.me/mcp/?token=${TOKEN}`;

/** A file holding `text`, the user's alone (a token file others could read gets its own warning). */
function secretFile(text: string, mode = 0o600): string {
  const file = path.join(h.tempDir(), 'secret.txt');
  fs.writeFileSync(file, text, { mode });
  fs.chmodSync(file, mode);
  return file;
}

/** What `ps` shows of a process: its command line (Linux only; elsewhere, its argv as spawned). */
function commandLine(pid: number, spawnedWith: string[]): string {
  const proc = `/proc/${pid}/cmdline`;
  return fs.existsSync(proc) ? fs.readFileSync(proc, 'utf8').split('\0').join(' ') : spawnedWith.join(' ');
}

/** `run` with the local server on; resolves with its state file's token once it listens. */
async function runLocal(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stateDir = h.tempDir();
  const config = h.writeConfig({ servers: [] });
  const full = ['run', '--config', config, '--mcp-port', '0', ...args];
  const run = h.spawn(full, { env: { XIAOZHI_TRAY_STATE_DIR: stateDir, ...env } });
  const stateFile = path.join(stateDir, 'local-server.json');
  await waitFor(() => fs.existsSync(stateFile), 20_000, `the state file\n${run.stdout()}${run.stderr()}`);
  const token = (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { token: string }).token;
  return { run, token, argv: commandLine(run.child.pid as number, full) };
}

describe('run: the local server token from a file or the environment', () => {
  it('takes --mcp-token-file FILE (the final line break dropped): the token is nowhere in ps', async () => {
    const { run, token, argv } = await runLocal(['--mcp-token-file', secretFile(`${MCP_TOKEN}\n`)]);
    expect(token).toBe(MCP_TOKEN);
    expect(argv).not.toContain(MCP_TOKEN);
    expect(run.stdout()).not.toContain('puts a secret on the command line');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('takes XIAOZHI_TRAY_MCP_TOKEN from the environment', async () => {
    const { run, token, argv } = await runLocal([], { XIAOZHI_TRAY_MCP_TOKEN: MCP_TOKEN });
    expect(token).toBe(MCP_TOKEN);
    expect(argv).not.toContain(MCP_TOKEN);
    run.child.kill('SIGTERM');
    await run.exit;
  });

  it('still takes --mcp-token T, and says in the log why not and what to use', async () => {
    const { run, token } = await runLocal(['--mcp-token', MCP_TOKEN]);
    expect(token).toBe(MCP_TOKEN);
    await waitForText(run.stdout, 'puts a secret on the command line');
    expect(run.stdout()).toContain(
      '--mcp-token puts a secret on the command line, where other users of this computer can see it (ps) and your shell history keeps it; use --mcp-token-file FILE or the XIAOZHI_TRAY_MCP_TOKEN environment variable instead',
    );
    expect(run.stdout()).not.toContain(MCP_TOKEN);
    run.child.kill('SIGTERM');
    await run.exit;
  });

  it('says what is wrong with a token file: missing, empty, both flags, others can read it', async () => {
    const config = h.writeConfig({ servers: [] });
    // Usage errors, refused before anything starts: answered in this process.
    const missing = await h.answered([
      'run',
      '--config',
      config,
      '--mcp-port',
      '0',
      '--mcp-token-file',
      path.join(h.tempDir(), 'nope.txt'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--mcp-token-file: cannot read \S+nope\.txt \(ENOENT\)/);
    const empty = await h.answered(['run', '--config', config, '--mcp-port', '0', '--mcp-token-file', secretFile('\n')]);
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/--mcp-token-file: \S+secret\.txt is empty/);
    const both = await h.answered(['run', '--config', config, '--mcp-token', MCP_TOKEN, '--mcp-token-file', secretFile(MCP_TOKEN)]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('give --mcp-token or --mcp-token-file, not both');
    if (process.platform !== 'win32') {
      const file = secretFile(MCP_TOKEN, 0o644);
      const { run } = await runLocal(['--mcp-token-file', file]);
      await waitForText(run.stdout, 'chmod 600');
      expect(run.stdout()).toContain(
        `${file} can be read by other users of this computer (mode 644): make it yours only with: chmod 600 ${file}`,
      );
      run.child.kill('SIGTERM');
      await run.exit;
    }
  });

  it.skipIf(process.platform === 'win32')(
    'refuses at once a token file that is a FIFO, a device, a folder or huge, naming it, rather than wait or read for ever',
    async () => {
      const BLOCKED = `still blocked after ${scaled(10_000)} ms`;
      const dir = h.tempDir();
      const fifo = path.join(dir, 'token');
      execFileSync('mkfifo', ['-m', '600', fifo]);
      const huge = path.join(dir, 'huge.txt');
      fs.writeFileSync(huge, 'x'.repeat(100_000), { mode: 0o600 });
      const config = h.writeConfig({ servers: [] }, 'config.json', dir);
      for (const file of [fifo, '/dev/zero', dir, huge]) {
        const run = h.spawn(['run', '--config', config, '--mcp-port', '0', '--mcp-token-file', file], {
          env: { XIAOZHI_TRAY_STATE_DIR: dir },
        });
        // Before, a FIFO: still blocked after 10 s, with no output. (Scaled: a loaded machine takes that long to start node.)
        const code = await Promise.race([run.exit, new Promise<string>((resolve) => setTimeout(() => resolve(BLOCKED), scaled(10_000)))]);
        expect(code).toBe(2);
        expect(run.stderr()).toContain(`--mcp-token-file: ${file}`);
      }
      for (const args of [
        ['init', '--config', path.join(dir, 'new.json'), '--endpoint-file', fifo, '--import', 'none', '--yes'],
        ['connect', '--url', 'http://127.0.0.1:9/mcp', '--token-file', fifo],
      ]) {
        const run = h.spawn(args, { env: { XIAOZHI_TRAY_STATE_DIR: dir } });
        const code = await Promise.race([run.exit, new Promise<string>((resolve) => setTimeout(() => resolve(BLOCKED), scaled(10_000)))]);
        expect(code).not.toBe(BLOCKED);
        expect(run.stderr()).toContain(fifo);
      }
    },
    scaled(90_000),
  );

  it('export --format cursor takes the token file too', async () => {
    const config = h.writeConfig({ servers: [], localServer: { port: 18799 } });
    const result = await h.answered(['export', '--config', config, '--format', 'cursor', '--mcp-token-file', secretFile(MCP_TOKEN)], {
      env: { XIAOZHI_TRAY_STATE_DIR: h.tempDir() },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).mcpServers['xiaozhi-tray'].headers.Authorization).toBe(`Bearer ${clientToken(MCP_TOKEN, 'cursor')}`);
    expect(result.err).toBe('');
  });

  it("export --format cursor uses the port it is given over the config's", async () => {
    const config = h.writeConfig({ servers: [], localServer: { port: 18799 } });
    const args = ['export', '--config', config, '--format', 'cursor', '--mcp-port', '18801', '--mcp-token-file', secretFile(MCP_TOKEN)];
    const result = await h.answered(args, { env: { XIAOZHI_TRAY_STATE_DIR: h.tempDir() } });
    expect(result.code, result.err).toBe(0);
    expect(JSON.parse(result.out).mcpServers['xiaozhi-tray'].url).toBe('http://127.0.0.1:18801/mcp/cursor');
  });
});

describe('init: the endpoint (and its token) from a file or stdin', () => {
  async function init(args: string[], stdin?: string) {
    const cwd = h.tempDir();
    const home = h.tempDir();
    const options = { cwd, env: { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: undefined, APPDATA: undefined } };
    // Reading flags and files and writing the config: answered in this process; "-" reads the
    // process's own stdin (fd 0), so a process it is given to.
    const result =
      stdin === undefined ? await h.answered(['init', ...args], options) : await h.finished(['init', ...args], { ...options, stdin });
    const file = path.join(cwd, 'xiaozhi-tray.json');
    return { ...result, written: fs.existsSync(file) ? loadConfigFile(file, {}).settings : undefined };
  }

  it('reads --endpoint-file FILE, and - from stdin', async () => {
    const fromFile = await init(['--endpoint-file', secretFile(`${ENDPOINT}\n`), '--import', 'none', '--yes']);
    expect(fromFile.code).toBe(0);
    expect(fromFile.written?.endpoints[0]?.url).toBe(ENDPOINT);
    expect(fromFile.err).toBe('');
    const fromStdin = await init(['--endpoint-file', '-', '--import', 'none', '--yes'], `${ENDPOINT}\n`);
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.written?.endpoints[0]?.url).toBe(ENDPOINT);
    // With questions, stdin is the questions' own.
    const asking = await init(['--endpoint-file', '-'], `${ENDPOINT}\n`);
    expect(asking.code).toBe(2);
    expect(asking.err).toContain('--endpoint-file - reads the endpoint from stdin, which the questions need too: add --yes');
  });

  it('still takes --endpoint URL, warning that its token is on the command line', async () => {
    const given = await init(['--endpoint', ENDPOINT, '--import', 'none', '--yes']);
    expect(given.code).toBe(0);
    expect(given.written?.endpoints[0]?.url).toBe(ENDPOINT);
    expect(given.err).toContain(
      'warning: --endpoint puts a secret on the command line, where other users of this computer can see it (ps) and your shell history keeps it; use --endpoint-file FILE instead',
    );
    expect(given.err).not.toContain(TOKEN);
    // A URL with no token in it is no secret.
    const plain = await init(['--endpoint', 'ws://127.0.0.1:8004/mcp', '--import', 'none', '--yes']);
    expect(plain.err).toBe('');
  });
});

describe('connect: the token from a file', () => {
  it('takes --token-file, and warns about --token', async () => {
    // Nothing listens there: what matters is how the token was taken, before any request.
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const url = `http://127.0.0.1:${closed}/mcp`;
    const fromFile = await h.finished(['connect', '--url', url, '--token-file', secretFile(MCP_TOKEN)]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.err).toBe(`xiaozhi-tray connect: Xiaozhi Tray is not running at http://127.0.0.1:${closed} (nothing listens there).\n`);
    const onArgv = await h.finished(['connect', '--url', url, '--token', MCP_TOKEN]);
    expect(onArgv.code).toBe(1);
    expect(onArgv.err.split('\n')[0]).toBe(
      'xiaozhi-tray connect: warning: --token puts a secret on the command line, where other users of this computer can see it (ps) and your shell history keeps it; use --token-file FILE instead',
    );
    expect(onArgv.err).not.toContain(MCP_TOKEN);
  });
});

describe('import and init: values a file asks for', () => {
  it('warns that --input env:NAME=SECRET is on the command line, and names the safer ways', async () => {
    const source = h.writeConfig(
      { mcpServers: { gh: { command: 'npx', args: ['gh-mcp'], env: { GH_TOKEN: '${env:XT_GH_TOKEN}' } } } },
      'mcp.json',
    );
    const target = path.join(h.tempDir(), 'tray.json');
    // Before: taken without a word, while every user of the computer could read it in ps.
    const given = await h.answered(['import', source, '--config', target, '--input', 'env:XT_GH_TOKEN=ghp_on_argv_0123456789', '--yes']);
    expect(given.code, given.err).toBe(0);
    expect(given.err).toContain(
      "warning: --input env:XT_GH_TOKEN=… puts a secret on the command line, where other users of this computer can see it (ps) and your shell history keeps it; use --use-env XT_GH_TOKEN (set it in this shell first) instead, or answer init's question (read without echo)",
    );
    expect(given.err + given.out).not.toContain('ghp_on_argv_0123456789');
    // A folder is no secret.
    const folder = await h.answered(['import', source, '--config', target, '--input', 'workspaceFolder=/tmp']);
    expect(folder.err).not.toContain('warning: --input');
  });
});
