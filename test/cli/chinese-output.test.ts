import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { CliHarness, fixtureEntry, TOKEN, waitForText } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

/**
 * The CLI under a Chinese locale, through its main() in this process: the words are the same as a
 * process's. A process where one is needed: the locale read from a real process's environment
 * (--help under zh_TW), init's questions on stdin, connect and run.
 */
const ZH = { LANG: 'zh_CN.UTF-8' };
const inChinese = (args: string[], env: NodeJS.ProcessEnv = {}) => h.answered(args, { env: { ...ZH, ...env } });
const answeredInChinese = inChinese;

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the CLI in Chinese when the locale says so', () => {
  it('usage: the general help in Chinese; LC_ALL, then LC_MESSAGES, then LANG decide; --lang overrides', async () => {
    const bare = await inChinese([]);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('用法：xiaozhi-tray 命令 [选项]');
    expect(bare.err).toContain('从这里开始：');
    expect(bare.err).toMatch(/\n {2}run {6}把你的工具提供给小智/);
    const help = await answeredInChinese(['help', 'run']);
    expect(help.out).toContain('用法：\n  xiaozhi-tray run');
    expect(help.out).toContain('选项：');
    // LC_ALL before LANG, LC_MESSAGES before LANG, and --lang before all of them.
    expect((await answeredInChinese(['--help'], { LC_ALL: 'C' })).out).toContain('Usage: xiaozhi-tray COMMAND [options]');
    expect((await h.finished(['--help'], { env: { LANG: 'C', LC_MESSAGES: 'zh_TW.UTF-8' } })).out).toContain('用法：');
    expect((await answeredInChinese(['--help', '--lang', 'en'])).out).toContain('Usage: xiaozhi-tray COMMAND [options]');
    expect((await h.answered(['help', '--lang=zh-CN'])).out).toContain('用法：');
    const badLang = await answeredInChinese(['--lang', 'fr', 'help']);
    expect(badLang).toMatchObject({ code: 2, out: '' });
    expect(badLang.err).toBe('xiaozhi-tray: --lang 只能是 en 或 zh-CN，不能是“fr”\n');
  });

  it('every --help in Chinese: no usage line ends in an English note', async () => {
    const init = await inChinese(['init', '--help']);
    expect(init.out).toMatch(/^ {2}xiaozhi-tray init \[--config FILE\] +会提问：接入点地址，以及从哪些应用导入$/m);
    expect(init.out).toMatch(/^ {2}xiaozhi-tray init --config FILE --endpoint-file FILE\|- .* --yes +不提问（供脚本使用）$/m);
    expect((await h.answered(['init', '--help'], { env: { LANG: 'en_US.UTF-8' } })).out).toMatch(
      /^ {2}xiaozhi-tray init \[--config FILE\] +asks for the endpoint and which apps to import from$/m,
    );
    const commands = [
      'ask',
      'call',
      'check',
      'connect',
      'export',
      'import',
      'init',
      'login',
      'run',
      'servers',
      'service',
      'stats',
      'tools',
    ];
    for (const command of commands) {
      const help = (await h.answered([command, '--help'], { env: ZH })).out;
      // Words after a usage line's syntax (two spaces or more, then prose) are a note for the reader.
      for (const line of help.split('\n').filter((l) => l.startsWith('  xiaozhi-tray ')))
        expect(line, command).not.toMatch(/ {2,}[a-z]+ [a-z]+/);
    }
  });

  it('a bad flag: said in Chinese, with the nearest option or the list and where to read more', async () => {
    const file = h.writeConfig({});
    const typo = await inChinese(['run', '--cofnig', file]);
    expect(typo).toEqual({ code: 2, out: '', err: 'xiaozhi-tray: 没有选项 --cofnig。是不是想用 --config？\n' });
    const far = await answeredInChinese(['check', '--colour']);
    expect(far.err).toContain(
      '“check”没有选项 --colour。可用的选项：--config, --allow-env, --help, --version；运行“xiaozhi-tray help check”查看说明',
    );
    const choice = await answeredInChinese(['export', '--config', file, '--format', 'yaml']);
    expect(choice.code).toBe(2);
    expect(choice.err).toContain(
      '--format 只能是 mcp-servers、xiaozhi-client、cursor、claude-desktop、vscode、cherry-studio，不能是“yaml”',
    );
    expect((await answeredInChinese(['tols'])).err).toContain('没有命令“tols”。是不是想用“tools”？');
    expect((await answeredInChinese(['run', '--config', file, '--mcp-port', 'x'])).err).toBe(
      'xiaozhi-tray: --mcp-port 必须是端口号（1-65535），不能是“x”\n',
    );
    const empty = h.writeConfig('', 'empty-token');
    expect((await answeredInChinese(['run', '--config', file, '--mcp-token-file', empty])).err).toContain(
      `--mcp-token-file：${empty} 是空的。请把密钥写进去（一行）`,
    );
    const withEndpoint = h.writeConfig({
      endpoints: [{ id: 'k', name: 'kitchen', url: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}` }],
      servers: [{ name: 'fx', transport: 'stdio', ...fixtureEntry() }],
    });
    expect((await inChinese(['tools', '--config', withEndpoint, '--endpoint', 'garage'])).err).toContain(
      '--endpoint “garage”不是配置中的接入点（配置中的接入点：kitchen）',
    );
  });

  it('a missing config file: its path, and how to make one', async () => {
    const dir = fs.realpathSync(h.tempDir());
    const missing = await h.answered(['check', '--config', 'nope.json'], { env: ZH, cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`找不到配置文件 nope.json（完整路径：${path.join(dir, 'nope.json')}）。`);
    expect(missing.err).toContain('可以这样创建一份：\n  xiaozhi-tray init --config nope.json');
    const none = await h.answered(['check'], { env: ZH, cwd: dir });
    expect(none.err).toContain(
      '缺少 --config FILE，当前文件夹里也没有 xiaozhi-tray.json。请这样运行：xiaozhi-tray check --config xiaozhi-tray.json',
    );
  });

  it('a malformed config: each problem with its line and JSON path, and what to do', async () => {
    const file = h.writeConfig('{\n  "servers": [\n    { "name": "x", "transport": "pipe" }\n  ]\n}\n');
    const run = await inChinese(['check', '--config', file]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${file}：配置文件有错误：`);
    expect(run.err).toMatch(/ {2}- 第 3 行第 \d+ 列（servers\[0\]\.transport）：/);
    expect(run.err).toContain(`请在文件中改正以上问题，然后再检查一遍：xiaozhi-tray check --config ${file}`);
    const broken = await inChinese(['check', '--config', h.writeConfig('{ "servers": [\n')]);
    expect(broken.err).toMatch(/ {2}- 第 2 行第 1 列：/);
  });

  it("check: the schema's problems in Chinese, still with line and JSON path; in English as before", async () => {
    const file = h.writeConfig(
      '{\n  "servers": [\n    { "name": "x", "transport": "pipe" },\n    { "transport": "stdio", "command": "node" },\n    { "name": "y", "transport": "stdio", "command": "node", "args": [1] }\n  ]\n}\n',
    );
    const zh = await inChinese(['check', '--config', file]);
    expect(zh.code).toBe(1);
    expect(zh.err).toContain(
      '  - 第 3 行第 33 列（servers[0].transport）：只能是以下之一：stdio, sse, streamable-http, http-api, openapi, coze, dify, n8n, home-assistant\n',
    );
    expect(zh.err).toContain('  - 第 4 行第 5 列（servers[1].name）：必须填写\n');
    expect(zh.err).toMatch(/（servers\[2\]\.args\[0\]）：应为文本，而不是整数\n/);
    expect(zh.err).not.toMatch(/is required|must be/);
    const en = await h.answered(['check', '--config', file], { env: { LANG: 'en_US.UTF-8' } });
    expect(en.err).toContain(
      '  - line 3, column 33, at servers[0].transport: must be one of stdio, sse, streamable-http, http-api, openapi, coze, dify, n8n, home-assistant\n',
    );
    expect(en.err).toContain('  - line 4, column 5, at servers[1].name: is required\n');
    expect(en.err).toContain('at servers[2].args[0]: must be text, not a whole number\n');
  });

  it('check: a file a newer app wrote says to update, in Chinese, not that its version must be 3', async () => {
    const file = h.writeConfig('{\n  "version": 4,\n  "servers": []\n}\n');
    const zh = await inChinese(['check', '--config', file]);
    expect(zh.code).toBe(1);
    expect(zh.err).toContain(
      '  - 第 2 行第 14 列（version）：由较新版本的 xiaozhi-tray 写成（设置版本 4，这一版最多能读 3）：请先更新 xiaozhi-tray\n',
    );
    expect(zh.err).not.toMatch(/must be|newer xiaozhi-tray/);
  });

  it('check and run: a key that is not a setting is said in Chinese, with the one it may be', async () => {
    const file = h.writeConfig('{\n  "servers": [],\n  "limitz": {}\n}\n');
    const check = await inChinese(['check', '--config', file]);
    expect(check.code).toBe(0);
    expect(check.out).toContain('警告：第 3 行第 13 列（limitz）：“limitz”不是设置项，会被忽略；是不是想写“limits”？\n');
    const run = h.spawn(['run', '--config', file], { env: ZH });
    await waitForText(run.stdout, `警告 [app] ${file}：第 3 行第 13 列（limitz）：“limitz”不是设置项，会被忽略；是不是想写“limits”？`);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect((await h.answered(['check', '--config', file])).out).toContain(
      'warning: line 3, column 13, at limitz: "limitz" is not a setting and is ignored; did you mean "limits"?',
    );
  });

  it('check: a server with neither a command nor a url is said in Chinese, and servers are 服务 as in the window (walkthrough 4)', async () => {
    const file = h.writeConfig({ mcpServers: { broken: { args: ['x'] } } });
    const zh = await inChinese(['check', '--config', file]);
    expect(zh.code).toBe(1);
    expect(zh.err).toContain('（mcpServers.broken）：既没有“command”（要运行的程序），也没有“url”（网络上的服务）');
    expect(zh.err).not.toMatch(/has neither|a program to run/);
    const en = await h.answered(['check', '--config', file], { env: { LANG: 'en_US.UTF-8' } });
    expect(en.err).toContain('has neither "command" (a program to run) nor "url" (a remote server)');
  });

  it('check and run: an endpoint needs only its url (the README does not ask for an id or a name)', async () => {
    const file = h.writeConfig({
      endpoints: [{ url: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}` }, { url: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}x` }],
    });
    const zh = await inChinese(['check', '--config', file]);
    expect(zh.err).toBe('');
    expect(zh).toMatchObject({ code: 0, out: `${file}：有效的 xiaozhi-tray 配置：2 个接入点，0 个服务\n` });
    const en = await h.answered(['check', '--config', file], { env: { LANG: 'en_US.UTF-8' } });
    expect(en).toMatchObject({ code: 0, err: '' });
    // An id given is kept, and the one made up for its neighbour is not the same.
    const mixed = h.writeConfig({
      endpoints: [{ url: `ws://127.0.0.1:9/mcp/?token=${TOKEN}` }, { id: 'endpoint-1', name: 'n', url: 'ws://127.0.0.1:9/b' }],
    });
    expect((await inChinese(['check', '--config', mixed])).code).toBe(0);
  });

  it('a connect failure: the level, the failure and how to check the endpoint URL, in Chinese', async () => {
    const port = await closedPort();
    const run = h.spawn(['run', '--config', h.writeConfig({})], {
      env: { ...ZH, MCP_ENDPOINT: `ws://127.0.0.1:${port}/mcp/?token=${TOKEN}` },
    });
    await waitForText(run.stdout, /警告 \[[^\]]+\] 连接失败或已断开：127\.0\.0\.1:\d+ 拒绝了连接。[\d.]+ 秒后重试。（.*请检查接入点地址/);
    expect(run.stdout()).not.toContain(TOKEN);
    expect(run.stdout()).toMatch(/信息 \[[^\]]+\] 正在连接 ws:\/\/127\.0\.0\.1:\d+\/mcp\/\?token=/);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('run under a Chinese locale: start, a server that fails, endpoints closed 4004 and 4001, stop: no English line', async () => {
    const [idle, refusing] = [await h.fakeXiaozhi(), await h.fakeXiaozhi()];
    const file = h.writeConfig({
      endpoints: [{ url: idle.url() }, { name: 'refused', url: refusing.url('bm90LWEtdG9rZW4') }],
      servers: [{ name: 'broken', transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'] }],
    });
    fs.chmodSync(file, 0o644);
    const run = h.spawn(['run', '--config', file], { env: ZH });
    await waitForText(run.stdout, /\[server:broken\] .*程序在就绪前退出了/);
    (await idle.connection(0)).close(4004, 'Internal server error');
    await waitForText(run.stdout, /\[endpoint:xiaozhi\] 连接失败或已断开：小智断开了一个空闲的连接。/);
    (await refusing.connection(0)).close(4001, 'token invalid');
    await waitForText(run.stdout, /\[endpoint:refused\] 连接失败或已断开：小智那边断开了连接。/);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    const messages = run
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^\S+ (信息|警告|错误) \[[^\]]+\] /, ''));
    expect(messages.at(-1)).toBe('已停止');
    expect(messages.some((m) => m.includes('chmod 600'))).toBe(true);
    for (const message of messages) expect(message).not.toMatch(/[A-Za-z]{3,} [a-z]{2,} [a-z]{2,}|\(redacted\)|。 /);
  });

  it("run's own status lines in Chinese; --log-format json stays English, with the code", async () => {
    const text = h.spawn(['run', '--config', h.writeConfig({})], { env: ZH });
    await waitForText(text.stdout, /警告 \[app\] 还没有配置接入点：请在网页界面（--ui）或配置文件里添加一个，或设置环境变量 MCP_ENDPOINT/);
    text.child.kill('SIGTERM');
    expect(await text.exit).toBe(0);
    // Before: "收到 SIGTERM：正在停止所有服务器…" (a signal's name is jargon; the window says 服务).
    expect(text.stdout()).toMatch(/信息 \[app\] 收到停止请求：正在停止所有服务…/);
    const json = h.spawn(['run', '--config', h.writeConfig({}), '--log-format', 'json'], { env: ZH });
    await waitForText(json.stdout, '"code":"cli.noEndpoint"');
    const line = json
      .stdout()
      .split('\n')
      .find((l) => l.includes('cli.noEndpoint')) as string;
    expect(JSON.parse(line)).toMatchObject({ level: 'warn', source: 'app', message: expect.stringMatching(/^no endpoint configured/) });
    json.child.kill('SIGTERM');
    expect(await json.exit).toBe(0);
  });

  it('stats and connect say what to do in Chinese', async () => {
    const dir = h.tempDir();
    const stats = await inChinese(['stats', '--dir', dir]);
    expect(stats.out).toBe(
      `还没有记录到调用（${path.join(dir, 'activity.jsonl')}）。桥接运行时才会记录调用：xiaozhi-tray run --config FILE。\n`,
    );
    const connect = await h.finished(['connect'], { env: { ...ZH, XIAOZHI_TRAY_STATE_DIR: dir } });
    expect(connect.code).toBe(1);
    expect(connect.err).toContain('小智托盘没有在运行，或者它的本机 MCP 服务没有打开（请在“设置”中打开它');
  });

  it('the local server on a port in use: the problem, and where to choose another port', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const run = h.spawn(['run', '--config', h.writeConfig({}), '--mcp-port', String(port)], {
        env: { ...ZH, XIAOZHI_TRAY_STATE_DIR: h.tempDir() },
      });
      await waitForText(
        run.stdout,
        `错误 [local-server] 端口 ${port} 已被其他程序（或另一个小智托盘）占用。（请在“设置 → 本机 MCP 服务”中换一个端口（命令行：run --mcp-port N），或退出占用它的程序。）`,
      );
      run.child.kill('SIGTERM');
      expect(await run.exit).toBe(0);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('import: which option is missing, a broken file once per place with what to do, the values it needs', async () => {
    const cutOff = h.writeConfig('{ "mcpServers": { "a": { "command": "x" }\n', 'cut.json');
    const noTarget = await inChinese(['import', cutOff]);
    expect(noTarget.code).toBe(2);
    expect(noTarget.err).toContain('import 需要要导入的 FILE 和 --config TARGET（导入到哪个配置文件）');
    const target = path.join(h.tempDir(), 'tray.json');
    const broken = await inChinese(['import', cutOff, '--config', target]);
    expect(broken.code).toBe(1);
    // Before: the English "invalid JSON: expected "}"" twice, one for each brace left open.
    expect(broken.err).toBe(
      `无法导入 ${cutOff}：\n  - 第 2 行第 1 列：JSON 格式错误：这里应有“}”（可能漏了右花括号）\n请改正这个文件（或在它所属的应用里重新保存一次），然后再导入。\n`,
    );
    expect((await h.answered(['import', cutOff, '--config', target])).err).toBe(
      `${cutOff} could not be imported:\n  - line 2, column 1: invalid JSON: expected "}"\nFix the file (or save it again from the app it comes from), then run the import again.\n`,
    );
    const folder = h.writeConfig({ mcpServers: { a: { command: 'x', args: ['${workspaceFolder}'] } } }, 'ws.json');
    const needs = await inChinese(['import', folder, '--config', target]);
    expect(needs.code).toBe(0);
    expect(needs.out).toContain('  需要的值 workspaceFolder：该服务使用的工作文件夹（文件中的 ${workspaceFolder}）；用于 a: args[0]');
    expect(needs.out).toContain('什么也没有写入。请用 --input 给出缺少的值（workspaceFolder=…）');
    expect(needs.out).toContain(
      'ws.json：claude-desktop 格式的配置\n  服务器 a：x ${workspaceFolder} → 添加\n    需要给出 workspaceFolder 的值\n',
    );
  });

  it('import: the preview and the summary in Chinese, with the names added and skipped, no English fragment', async () => {
    const dir = h.tempDir();
    const source = h.writeConfig(
      {
        mcpServers: {
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
          copy: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
          risky: { command: 'node', args: ['x.js'], env: { NODE_OPTIONS: '--require ./a.js', API_KEY: 'sk-abcdefabcdef12345678' } },
          remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer abcdefghijklmnop1234' } },
          home: { command: 'node', args: ['h.js'], env: { WHERE: '${env:XT_HOME_DIR}' } },
        },
      },
      'claude.json',
      dir,
    );
    const target = h.writeConfig(
      { servers: [{ name: 'memory', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }] },
      'tray.json',
      dir,
    );
    const env = { XT_HOME_DIR: '/home/someone' };
    const preview = await inChinese(['import', source, '--config', target], env);
    expect(preview.code, preview.err).toBe(0);
    expect(preview.out).toContain('    env NODE_OPTIONS=--require ./a.js   <- 能在服务器启动前运行别的代码\n');
    expect(preview.out).toContain('    env API_KEY=sk-a…（已隐藏）\n');
    expect(preview.out).toContain(
      '    当前环境中已设置（/hom…（已隐藏））：--use-env XT_HOME_DIR 会把它交给该服务；或用 --input env:XT_HOME_DIR=… 给出另一个值\n',
    );
    expect(preview.out).toContain('  警告：服务器“risky”设置了 NODE_OPTIONS，它能在服务器启动前运行别的代码；请检查上面的值\n');
    const done = await inChinese(['import', source, '--config', target, '--yes', '--use-env', 'XT_HOME_DIR', '--allow-code-env'], env);
    expect(done.code, done.err).toBe(0);
    expect(done.out).toContain(
      `已导入到 ${target}：新增 3 个服务，替换 0 个，0 个接入点，跳过 2 个。\n  新增：risky、remote、home\n  跳过：memory、copy\n`,
    );
    for (const out of [preview.out, done.out]) expect(out).not.toMatch(/\(redacted\)|[a-z]{3,} [a-z]{3,} [a-z]{3,}/);
    const refused = await inChinese(
      ['import', source, '--config', h.writeConfig({}, 'other.json', dir), '--yes', '--use-env', 'XT_HOME_DIR'],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      '什么也没有写入：服务器“risky”设置了 NODE_OPTIONS，它能在服务器启动前运行别的代码。如果你信任上面显示的值，请加上 --allow-code-env 再运行一次。',
    );
  });

  it('call: a tool xiaozhi would not see, with the nearest one and where the list is', async () => {
    const file = h.writeConfig({ mcpServers: { fx: fixtureEntry() } });
    const run = await inChinese(['call', '--config', file, 'ecko']);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`小智看不到名为“ecko”的工具。是不是想用 "echo"？运行“xiaozhi-tray tools --config ${file}”查看所有工具。`);
  });

  it("init's questions and what it wrote, in Chinese", async () => {
    const home = h.tempDir();
    const cwd = h.tempDir();
    const env = { ...ZH, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: undefined, APPDATA: undefined };
    const asked = await h.finished(['init'], { env, cwd, stdin: '' });
    expect(asked.code).toBe(1);
    expect(asked.out).toContain('请从小智控制台复制 MCP 接入点地址（xiaozhi.me → 控制台 → MCP 接入点）。');
    expect(asked.err).toContain('没有收到回答（输入已结束），所以什么也没有写入。');
    const wrote = await h.answered(['init', '--yes'], { env, cwd });
    expect(wrote.code, wrote.err).toBe(0);
    expect(wrote.out).toContain('已写入 xiaozhi-tray.json：有效，0 个接入点，0 个服务。');
    expect(wrote.out).toContain('下一步：');
    expect((await h.answered(['init', '--yes'], { env, cwd })).err).toContain('xiaozhi-tray.json 已存在，没有改动。要替换它请加 --force');
    const onLine = await h.answered(['init', '--yes', '--force', '--endpoint', `wss://api.xiaozhi.me/mcp/?token=${TOKEN}`], { env, cwd });
    expect(onLine.code, onLine.err).toBe(0);
    expect(onLine.err).toContain('警告：--endpoint 把密钥放在了命令行上，这台电脑的其他用户能看到它（ps）');
  });

  it("init --yes: what it skipped and added from another app's file, in Chinese", async () => {
    const home = h.tempDir();
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.writeFileSync(
      path.join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { a: { command: 'node', args: ['${input:key}'] }, c: { command: 'node', args: ['c.js'] } } }),
    );
    const env = { ...ZH, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: undefined, APPDATA: undefined };
    const run = await h.answered(['init', '--yes', '--import', 'cursor'], { env, cwd: h.tempDir() });
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain('警告：跳过了 Cursor 的服务器“a”：它需要 input:key（请用 --input input:key=VALUE 给出）');
    expect(run.out).toContain('Cursor：添加了 1 个服务（c），跳过 1 个（已经有了，或无法使用）');
  });

  it("tools: the table's headings and each server's line in Chinese", async () => {
    const file = h.writeConfig({ mcpServers: { fx: fixtureEntry() } });
    const run = await inChinese(['tools', '--config', file]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^服务器 fx（stdio）：\d+ 个工具$/m);
    expect(run.out).toMatch(/^第 1 页，共 1 页$/m);
    expect(run.out).toMatch(/^ {2}工具 +大小 {2}来自 +说明$/m);
    expect(run.out).toMatch(/^\d+ 个工具，共 \d+ 字节，分 1 页，每页最多 \d+ 字节$/m);
    // Machine output stays English and the same whatever the locale.
    const [zhJson, cJson] = await Promise.all([
      inChinese(['servers', '--config', file, '--json']),
      h.answered(['servers', '--config', file, '--json']),
    ]);
    const withoutPids = (text: string) => text.replace(/"pid": \d+/g, '"pid": 0');
    expect(withoutPids(zhJson.out)).toBe(withoutPids(cJson.out));
    expect(JSON.parse(zhJson.out).servers[0]).toMatchObject({ name: 'fx', state: 'running' });
  });
});
