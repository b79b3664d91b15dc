import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { loadConfigFile } from '../../src/main/core/config/load-config';
import type { Settings } from '../../src/shared/settings';
import { CLI, cliEnv, CliHarness, TOKEN, waitForText } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

const IMPORTS = path.resolve(__dirname, '../fixtures/import');
const ENDPOINT = `wss://api.xiaozhi.me/mcp/?token=${TOKEN}`;

/** A home folder with Claude Desktop's, Cursor's and VS Code's configs where they keep them on Linux. */
function fakeHome(): { home: string; env: NodeJS.ProcessEnv } {
  const home = h.tempDir();
  const place = (fixture: string, ...at: string[]) => {
    fs.mkdirSync(path.join(home, ...at.slice(0, -1)), { recursive: true });
    fs.copyFileSync(path.join(IMPORTS, fixture), path.join(home, ...at));
  };
  place('claude_desktop_config.json', '.config', 'Claude', 'claude_desktop_config.json');
  place('cursor-mcp.json', '.cursor', 'mcp.json');
  place('vscode-mcp.json', '.config', 'Code', 'User', 'mcp.json');
  // Discovery must look only here: every variable that could point elsewhere is unset.
  return {
    home,
    env: {
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: undefined,
      APPDATA: undefined,
      CODEX_HOME: undefined,
      XIAOZHI_CONFIG_DIR: undefined,
    },
  };
}

/**
 * `init args` in a fresh folder. With flags only, through the CLI's main() in this process (the same
 * words, files and exit code); answers on `stdin` are a process's: its stdin is a pipe, read as a user types.
 */
async function init(args: string[], env: NodeJS.ProcessEnv, stdin?: string) {
  const cwd = h.tempDir();
  const run =
    stdin === undefined ? await h.answered(['init', ...args], { env, cwd }) : await h.finished(['init', ...args], { env, cwd, stdin });
  const file = path.join(cwd, 'xiaozhi-tray.json');
  // What the file means to the app (written minimal: defaults are left out).
  const written = fs.existsSync(file) ? loadConfigFile(file, {}).settings : undefined;
  return { ...run, file, cwd, written };
}

describe('init: a working config from nothing', () => {
  it('says what it added in Chinese under LANG=zh_CN (issue 33: its summaries were English)', async () => {
    const { env } = fakeHome();
    const run = await init(['--endpoint', ENDPOINT, '--import', 'claude-desktop,cursor', '--yes'], { ...env, LANG: 'zh_CN.UTF-8' });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('Claude Desktop：添加了 2 个服务（filesystem、github）');
    expect(run.out).not.toMatch(/servers? added/);
  });

  it('without questions: endpoint, every app found, values given as --input; the file checks and runs', async () => {
    const { env } = fakeHome();
    const run = await init(['--endpoint', ENDPOINT, '--import', 'all', '--input', 'input:perplexity-key=pplx-0123456789', '--yes'], env);
    expect(run.code, run.err).toBe(0);
    expect(run.written?.endpoints).toEqual([expect.objectContaining({ name: 'xiaozhi', url: ENDPOINT, enabled: true })]);
    expect(run.written?.servers.map((s) => s.name)).toEqual([
      'filesystem',
      'github',
      'server-name',
      'remote-server',
      'legacy-sse',
      'Perplexity',
      'fetch',
      'my-remote',
    ]);
    expect(run.written?.servers.find((s) => s.name === 'Perplexity')).toMatchObject({ env: { PERPLEXITY_API_KEY: 'pplx-0123456789' } });
    // ${workspaceFolder} was not given: that server is left out, and the user is told how to add it.
    expect(run.err).toContain('skipped server "files" of VS Code: it needs workspaceFolder (give it with --input workspaceFolder=VALUE)');
    expect(run.out).toContain('Claude Desktop: 2 servers added (filesystem, github)');
    expect(run.out).toContain('Wrote xiaozhi-tray.json: valid, 1 endpoint (wss://api.xiaozhi.me/mcp/?token=eyJh…(redacted)), 8 servers.');
    expect(run.out + run.err).not.toContain(TOKEN);

    const check = await h.answered(['check', '--config', run.file]);
    expect(check.code).toBe(0);
    expect(check.out).toContain('valid xiaozhi-tray config: 1 endpoint, 8 servers');
  });

  it('imports only the apps named, tells about the others, and refuses an app it does not know', async () => {
    const { env } = fakeHome();
    const cursor = await init(['--import', 'cursor', '--yes'], env);
    expect(cursor.code).toBe(0);
    expect(cursor.written?.servers.map((s) => s.name)).toEqual(['server-name', 'remote-server', 'legacy-sse']);
    expect(cursor.written?.endpoints).toEqual([]);
    expect(cursor.out).toContain('No endpoint yet: set MCP_ENDPOINT, or add it in the web UI');

    const none = await init(['--yes'], env);
    expect(none.written).toMatchObject({ endpoints: [], servers: [] });
    expect(none.out).toContain('Found 3 MCP client configs (Claude Desktop, Cursor, VS Code); add --import all to import them.');

    const typo = await init(['--import', 'curser', '--yes'], env);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('"curser" is none of them. Did you mean cursor?');
    expect(typo.written).toBeUndefined();
    const badUrl = await init(['--endpoint', 'https://api.xiaozhi.me/mcp/', '--yes'], env);
    expect(badUrl).toMatchObject({ code: 2, written: undefined });
    expect(badUrl.err).toContain('--endpoint must be a ws:// or wss:// URL');
  });

  it('refuses an endpoint with a line break or a space inside, and trims one around it', async () => {
    const { env } = fakeHome();
    for (const bad of [
      `${ENDPOINT}\nwss://second.example/mcp/`,
      ENDPOINT.replace('?token=', '? token='),
      `${ENDPOINT.slice(0, 30)}\t${ENDPOINT.slice(30)}`,
    ]) {
      const refused = await init(['--endpoint', bad, '--import', 'none', '--yes'], env);
      expect(refused, bad).toMatchObject({ code: 2, written: undefined });
      expect(refused.err).toContain('--endpoint has a line break, a tab or a space inside; copy it again as one line');
    }
    const padded = await init(['--endpoint', `  ${ENDPOINT}\n`, '--import', 'none', '--yes'], env);
    expect(padded.code, padded.err).toBe(0);
    expect(padded.written?.endpoints[0]?.url).toBe(ENDPOINT);
    const typed = await init(['--import', 'none'], env, `${ENDPOINT.replace('?token=', '?token= ')}\n  ${ENDPOINT}  \n`);
    expect(typed.code, typed.err).toBe(0);
    expect(typed.out).toContain('The endpoint URL has a line break, a tab or a space inside');
    expect(typed.written?.endpoints[0]?.url).toBe(ENDPOINT);
  });

  it('takes off what a paste brought along (quotes, MCP_ENDPOINT=, a trailing quote) and says so', async () => {
    const { env } = fakeHome();
    for (const pasted of [`"${ENDPOINT}"`, `MCP_ENDPOINT=${ENDPOINT}`, `${ENDPOINT}"`]) {
      const run = await init(['--endpoint', pasted, '--import', 'none', '--yes'], env);
      expect(run.code, run.err).toBe(0);
      expect(run.written?.endpoints[0]?.url).toBe(ENDPOINT);
      expect(run.err).toMatch(/took (quotes|a label before it) off the endpoint URL/);
    }
    const typed = await init(['--import', 'none'], env, `export MCP_ENDPOINT='${ENDPOINT}'\n`);
    expect(typed.code, typed.err).toBe(0);
    expect(typed.written?.endpoints[0]?.url).toBe(ENDPOINT);
  });

  it('says plainly that --config names a folder, with or without --force', async () => {
    const { env } = fakeHome();
    const cwd = h.tempDir();
    fs.mkdirSync(path.join(cwd, 'configs'));
    fs.writeFileSync(path.join(cwd, 'endpoint.txt'), ENDPOINT, { mode: 0o600 });
    for (const extra of [[], ['--force']]) {
      const run = h.spawn(['init', '--config', 'configs', '--endpoint-file', 'endpoint.txt', '--yes', ...extra], { env, cwd });
      expect(await run.exit).toBe(1);
      expect(run.stderr()).toBe(
        `configs is a folder, not a file. Name the file to write, e.g. --config ${path.join('configs', 'xiaozhi-tray.json')}\n`,
      );
    }
  });

  it('asks on stdin: the endpoint (again when it is wrong), which apps, the values they need', async () => {
    const { env } = fakeHome();
    const answers = ['https://wrong.example/mcp', ENDPOINT, '1, 3', 'pplx-typed-value', ''].join('\n');
    const run = await init([], env, `${answers}\n`);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('The endpoint URL must be a ws:// or wss:// URL');
    expect(run.out).toMatch(/1\) Claude Desktop — .*claude_desktop_config\.json: 2 servers \(filesystem, github\)/);
    expect(run.out).toMatch(/3\) VS Code — .*mcp\.json: 4 servers/);
    expect(run.written?.endpoints[0]?.url).toBe(ENDPOINT);
    expect(run.written?.servers.map((s) => s.name)).toEqual(['filesystem', 'github', 'Perplexity', 'fetch', 'my-remote']);
    expect(run.written?.servers.find((s) => s.name === 'Perplexity')).toMatchObject({ env: { PERPLEXITY_API_KEY: 'pplx-typed-value' } });
    expect(run.out).not.toContain(TOKEN);
  });

  it('fills an app\'s ${env:…} only with --use-env (or an answer of "env"), never silently from the shell', async () => {
    const { home, env } = fakeHome();
    fs.mkdirSync(path.join(home, '.codeium', 'windsurf'), { recursive: true });
    fs.copyFileSync(path.join(IMPORTS, 'windsurf-mcp_config.json'), path.join(home, '.codeium', 'windsurf', 'mcp_config.json'));
    const shell = { ...env, XT_TEST_GITHUB_TOKEN: 'ghp_from_the_shell_0123456789' };
    // Before: github was added with the shell's token, unasked.
    fs.writeFileSync(
      path.join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { two: { command: 'node', args: ['s.js'], env: { A: '${env:XT_UNSET_A}', B: '${env:XT_UNSET_B}' } } } }),
    );
    const both = await init(['--import', 'cursor', '--yes'], env);
    // A server that needs two values needs both (before: "it needs env:XT_UNSET_A or env:XT_UNSET_B").
    expect(both.err).toContain('skipped server "two" of Cursor: it needs env:XT_UNSET_A and env:XT_UNSET_B');
    const quiet = await init(['--import', 'windsurf', '--yes'], shell);
    expect(quiet.code, quiet.err).toBe(0);
    expect(quiet.err).toContain(
      'skipped server "github" of Windsurf: it needs env:XT_TEST_GITHUB_TOKEN (give it with --input env:XT_TEST_GITHUB_TOKEN=VALUE, or --use-env XT_TEST_GITHUB_TOKEN)',
    );
    expect(quiet.written?.servers ?? []).toEqual([]);

    const used = await init(
      ['--import', 'windsurf', '--use-env', 'XT_TEST_GITHUB_TOKEN', '--input', 'env:XT_TEST_UNSET_FIGMA_TOKEN=figma-typed', '--yes'],
      shell,
    );
    expect(used.code, used.err).toBe(0);
    expect(used.written?.servers.find((s) => s.name === 'github')).toMatchObject({
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_from_the_shell_0123456789' },
    });

    const asked = await init(['--import', 'windsurf'], shell, `${ENDPOINT}\nenv\n\n`);
    expect(asked.code, asked.err).toBe(0);
    expect(asked.out).toContain(
      'Server "github" needs env:XT_TEST_GITHUB_TOKEN (Environment variable XT_TEST_GITHUB_TOKEN, for github: env.GITHUB_PERSONAL_ACCESS_TOKEN); value; "env" takes the one set here (ghp_…(redacted))',
    );
    // Both languages offer "env" (before, the Chinese half left it out).
    expect(asked.out).toContain('请输入值；输入 env 则使用本机环境中的值；留空则跳过此服务器: ');
    expect(asked.written?.servers.map((s) => s.name)).toEqual(['github']);
    expect(asked.out + asked.err).not.toContain('ghp_from_the_shell_0123456789');
  });

  it('writes nothing when the answers run out, and never replaces a file unless told to', async () => {
    const { env } = fakeHome();
    const cut = await init([], env, `${ENDPOINT}\n`);
    expect(cut.code).toBe(1);
    expect(cut.err).toContain('No answer (the input ended), so nothing was written.');
    expect(cut.written).toBeUndefined();

    const cwd = h.tempDir();
    const file = path.join(cwd, 'mine.json');
    fs.writeFileSync(file, '{"servers": []}\n');
    const refused = h.spawn(['init', '--config', 'mine.json', '--yes'], { env, cwd });
    expect(await refused.exit).toBe(1);
    expect(refused.stderr()).toContain('mine.json exists and was left as it is. Use --force to replace it');
    const declined = h.spawn(['init', '--config', 'mine.json'], { env, cwd, stdin: 'n\n' });
    expect(await declined.exit).toBe(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"servers": []}\n');
    const forced = h.spawn(['init', '--config', 'mine.json', '--endpoint', ENDPOINT, '--force', '--yes'], { env, cwd });
    expect(await forced.exit).toBe(0);
    expect((JSON.parse(fs.readFileSync(file, 'utf8')) as Settings).endpoints).toHaveLength(1);
  });
  it("refuses, under --yes, an app's server that sets NODE_OPTIONS unless --allow-code-env; asks about it when interactive", async () => {
    const { home, env } = fakeHome();
    const hook = path.join(home, 'hook.js');
    fs.writeFileSync(
      path.join(home, '.cursor', 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          plain: { command: 'node', args: ['plain.js'] },
          hooked: { command: 'node', args: ['server.js'], env: { NODE_OPTIONS: `--require ${hook}` } },
        },
      }),
    );
    // Before: both were written, the hook with them, and nothing was said.
    const refused = await init(['--import', 'cursor', '--yes'], env);
    expect(refused.code).toBe(1);
    expect(refused.written).toBeUndefined();
    expect(refused.out).toContain(`env NODE_OPTIONS=--require ${hook}   <- can run other code before the server starts`);
    expect(refused.err).toContain(
      'Nothing was written: "hooked" of Cursor sets NODE_OPTIONS, which can run other code before the server starts. If you trust the values shown above, run again with --allow-code-env.',
    );

    const allowed = await init(['--import', 'cursor', '--allow-code-env', '--yes'], env);
    expect(allowed.code, allowed.err).toBe(0);
    expect(allowed.written?.servers.map((s) => s.name)).toEqual(['plain', 'hooked']);

    // Interactive: the values are shown and the choice is the user's (no by default).
    const declined = await init(['--import', 'cursor'], env, `${ENDPOINT}\n\n`);
    expect(declined.code, declined.err).toBe(0);
    expect(declined.out).toContain(`env NODE_OPTIONS=--require ${hook}`);
    expect(declined.out).toContain('Import "hooked" anyway?');
    expect(declined.written?.servers.map((s) => s.name)).toEqual(['plain']);
    const accepted = await init(['--import', 'cursor'], env, `${ENDPOINT}\ny\n`);
    expect(accepted.code, accepted.err).toBe(0);
    expect(accepted.written?.servers.map((s) => s.name)).toEqual(['plain', 'hooked']);
  });
  it.skipIf(process.platform === 'win32')(
    'on a terminal, reads the endpoint and secret values without showing them',
    async () => {
      const { env } = fakeHome();
      const cwd = h.tempDir();
      // script(1) gives init a terminal, which echoes what is typed unless init turns that off.
      const command = [...CLI, 'init', '--import', 'vscode'].map((w) => `'${w}'`).join(' ');
      const child = spawn('script', ['-qefc', command, '/dev/null'], {
        cwd,
        env: cliEnv(env),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        await waitForText(() => out, '留空跳过', 45_000);
        child.stdin.write(`${ENDPOINT}\r`);
        await waitForText(() => out, 'needs input:perplexity-key', 45_000);
        child.stdin.write('pplx-typed-secret-value\r');
        await waitForText(() => out, 'needs workspaceFolder', 45_000);
        child.stdin.write('\r');
        await waitForText(() => out, 'Wrote xiaozhi-tray.json', 45_000);
        // script(1) ends once its own input does.
        child.stdin.end();
        expect(await exit).toBe(0);
      } catch (error) {
        throw new Error(`${String(error)}; the terminal showed:\n${out}`);
      } finally {
        child.kill('SIGKILL');
      }
      // Before: the terminal showed the endpoint with its token, and the key, as they were typed.
      expect(out).not.toContain(TOKEN);
      expect(out).not.toContain('pplx-typed-secret-value');
      expect(out).toContain('Endpoint: wss://api.xiaozhi.me/mcp/?token=eyJh…(redacted)');
      const written = loadConfigFile(path.join(cwd, 'xiaozhi-tray.json'), {}).settings;
      expect(written.endpoints[0]?.url).toBe(ENDPOINT);
      expect(written.servers.find((s) => s.name === 'Perplexity')).toMatchObject({
        env: { PERPLEXITY_API_KEY: 'pplx-typed-secret-value' },
      });
    },
    60_000,
  );
});
