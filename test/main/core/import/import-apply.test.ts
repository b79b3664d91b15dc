import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { parseMcpConfig } from '../../../../src/main/core/config/parse-config';
import { discoverClients, knownConfigPaths } from '../../../../src/main/core/import/discover-clients';
import { exportConfig } from '../../../../src/main/core/import/export-config';
import { defaultSettings, defaultToolSwitches } from '../../../../src/shared/settings';
import { FIXTURE, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { CLI_SCRIPT } from '../../../helpers/cli-env';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

const dir = path.resolve(__dirname, '../../../fixtures/import');
const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
let harness: Harness | undefined;
const tempDir = tempDirs('xt-import-');
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

/** A fresh folder holding another app's config (`name`, with these mcpServers), and where ours would be written. */
function withConfig(name: string, mcpServers: Record<string, unknown>): { source: string; target: string } {
  const work = tempDir();
  const source = path.join(work, name);
  fs.writeFileSync(source, JSON.stringify({ mcpServers }));
  return { source, target: path.join(work, 'xiaozhi-tray.json') };
}

describe('import: apply through the BridgeApi', () => {
  it('adds the servers of a dropped file and starts them', async () => {
    harness = makeBridge({});
    harness.bridge.start();
    const text = JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'imported' } } } });
    const preview = await harness.bridge.api.previewImport({ source: 'claude_desktop_config.json', text });
    expect(preview.servers[0]).toMatchObject({ action: 'add', server: { name: 'fx' } });
    const result = await harness.bridge.api.applyImport({ id: preview.id });
    expect(result).toEqual({ addedServers: ['fx'], replacedServers: [], addedEndpoints: [], skipped: 0, skippedNames: [] });
    await waitFor(() => harness!.bridge.state().servers[0]?.state === 'running', 10_000, 'the imported server to run');
    expect((await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'hi' } })).text).toBe('imported: hi');
  });

  it('a header with a line break inside: nothing is added, and the refusal names the server as the file does', async () => {
    harness = makeBridge({ servers: [{ name: 'held', transport: 'stdio', command: process.execPath, args: [FIXTURE] }] });
    const text = JSON.stringify({
      mcpServers: { amap: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abc\r\nX-Injected: 1' } } },
    });
    const applied = harness.bridge.api
      .previewImport({ source: 'mcp.json', text })
      .then((p) => harness!.bridge.api.applyImport({ id: p.id }));
    await expect(applied).rejects.toThrow(/the server "amap" at headers\.Authorization: .*on one line/);
    expect(harness.store.load().servers.map((s) => s.name)).toEqual(['held']);
  });

  it('fills VS Code inputs, keeps secret values secret, and is all-or-nothing', async () => {
    harness = makeBridge({});
    const preview = await harness.bridge.api.previewImport({ source: 'mcp.json', text: read('vscode-mcp.json') });
    // Missing values: nothing changes.
    await expect(
      harness.bridge.api.applyImport({ id: preview.id, inputs: { 'input:perplexity-key': 'pplx-secret-value' } }),
    ).rejects.toThrow(/"files" needs a value for workspaceFolder/);
    expect((await harness.bridge.api.getSettings()).servers).toHaveLength(0);

    const again = await harness.bridge.api.previewImport({ source: 'mcp.json', text: read('vscode-mcp.json') });
    const result = await harness.bridge.api.applyImport({
      id: again.id,
      inputs: { 'input:perplexity-key': 'pplx-secret-value', workspaceFolder: '/home/me/project' },
    });
    expect(result.addedServers).toEqual(['Perplexity', 'fetch', 'my-remote', 'files']);
    const stored = harness.store.load();
    const perplexity = stored.servers.find((s) => s.name === 'Perplexity');
    expect(perplexity).toMatchObject({ env: { PERPLEXITY_API_KEY: 'pplx-secret-value' } });
    expect(stored.servers.find((s) => s.name === 'files')).toMatchObject({ args: ['/home/me/project/server.js'] });
    expect(JSON.stringify(await harness.bridge.api.getSettings())).not.toContain('pplx-secret-value');
  });

  it('finds the servers of a file imported before, whatever their names, once placeholders were filled', async () => {
    harness = makeBridge({});
    const inputs = { 'input:perplexity-key': 'pplx-secret-value', workspaceFolder: '/home/me/project' };
    const first = await harness.bridge.api.previewImport({ source: 'mcp.json', text: read('vscode-mcp.json') });
    await harness.bridge.api.applyImport({ id: first.id, inputs });
    await harness.bridge.api.updateServer({
      name: 'files',
      server: { ...harness.store.load().servers.find((s) => s.name === 'files')!, name: 'my-files' },
    });

    const second = await harness.bridge.api.previewImport({ source: 'mcp.json', text: read('vscode-mcp.json') });
    expect(second.servers.map((s) => [s.server.name, s.action, s.conflict?.existing])).toEqual([
      ['Perplexity', 'skip', 'Perplexity'],
      ['fetch', 'skip', 'fetch'],
      ['my-remote', 'skip', 'my-remote'],
      ['files', 'skip', 'my-files'],
    ]);
    const result = await harness.bridge.api.applyImport({ id: second.id, inputs });
    expect(result.addedServers).toEqual([]);
    expect(
      harness.store
        .load()
        .servers.map((s) => s.name)
        .sort(),
    ).toEqual(['Perplexity', 'fetch', 'my-files', 'my-remote']);
  });

  it('knows a server it holds however the file spells it: npx -y or not, a host in capitals, a trailing slash', async () => {
    harness = makeBridge({
      servers: [
        { name: 'memory', transport: 'stdio', command: 'npx', args: ['@modelcontextprotocol/server-memory'] },
        { name: 'remote', transport: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: {} },
      ],
    });
    const text = JSON.stringify({
      mcpServers: {
        mem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        far: { url: 'https://MCP.Example.com/mcp/' },
      },
    });
    const preview = await harness.bridge.api.previewImport({ source: 'mcp.json', text });
    expect(preview.servers.map((s) => [s.server.name, s.action, s.conflict?.existing])).toEqual([
      ['mem', 'skip', 'memory'],
      ['far', 'skip', 'remote'],
    ]);
  });

  it('applies rename and replace choices, and refuses an expired preview', async () => {
    harness = makeBridge({ servers: [{ name: 'github', transport: 'stdio', command: 'npx', args: ['old'], enabled: false }] });
    const text = read('claude_desktop_config.json');
    const preview = await harness.bridge.api.previewImport({ source: 'c.json', text });
    expect(preview.servers.find((s) => s.server.name === 'github')).toMatchObject({ action: 'rename', suggestedName: 'github-2' });
    await harness.bridge.api.applyImport({
      id: preview.id,
      servers: { github: { action: 'replace' }, filesystem: { action: 'rename', name: 'fs' } },
    });
    const names = harness.store
      .load()
      .servers.map((s) => s.name)
      .sort();
    expect(names).toEqual(['fs', 'github']);
    expect(harness.store.load().servers.find((s) => s.name === 'github')).toMatchObject({
      args: ['-y', '@modelcontextprotocol/server-github'],
    });
    await expect(harness.bridge.api.applyImport({ id: preview.id })).rejects.toThrow(/expired/);
  });

  it('imports endpoints and tool switches from xiaozhi-client', async () => {
    harness = makeBridge({});
    const text = fs.readFileSync(path.resolve(__dirname, '../../../fixtures/configs/xiaozhi.config.json'), 'utf8');
    const preview = await harness.bridge.api.previewImport({ source: 'xiaozhi.config.json', text });
    expect(preview.endpoints).toEqual([
      { name: 'xiaozhi', url: 'wss://api.xiaozhi.me/mcp/?token=eyJh…(redacted)', action: 'add', suggestedName: 'xiaozhi' },
    ]);
    await harness.bridge.api.applyImport({
      id: preview.id,
      servers: {
        calculator: { action: 'add' },
        datetime: { action: 'skip' },
        amap: { action: 'skip' },
        'legacy-sse': { action: 'skip' },
        'plain-http': { action: 'skip' },
      },
    });
    const settings = harness.store.load();
    expect(settings.endpoints).toHaveLength(1);
    expect(defaultToolSwitches(settings).calculator).toEqual({
      calculator: { enabled: true, description: '计算器' },
      sqrt: { enabled: false },
    });
    expect(settings.modelscope.apiKey).toBe('ms-0123456789abcdef');
  });

  it('finds an endpoint it already has, however the file writes it, and will not add it twice', async () => {
    const url = 'wss://api.xiaozhi.me/mcp/?token=eyJhbGciOiJFUzI1NiJ9.already-here';
    harness = makeBridge({ endpoints: [{ id: 'a', name: 'home', url }] });
    // A slash less, the host in capitals, and a quote pasted in with it.
    const text = JSON.stringify({
      mcpEndpoint: `${url.replace('/mcp/', '/mcp').replace('api.xiaozhi.me', 'API.XIAOZHI.ME')}"`,
      mcpServers: {},
    });
    const preview = await harness.bridge.api.previewImport({ source: 'xiaozhi.config.json', text });
    expect(preview.endpoints).toEqual([expect.objectContaining({ conflict: { kind: 'same-url', existing: 'home' }, action: 'skip' })]);
    await expect(
      harness.bridge.api.applyImport({ id: preview.id, endpoints: { xiaozhi: { action: 'rename', name: 'again' } } }),
    ).rejects.toThrow(/same endpoint as "home"/);
    expect(harness.store.load().endpoints).toHaveLength(1);
  });
});

describe('import: round trips', () => {
  for (const fixture of ['claude_desktop_config.json', 'cursor-mcp.json', 'cline_mcp_settings.json', 'snippet-named.json']) {
    it(`${fixture} → export → import gives the same servers`, () => {
      const first = parseMcpConfig(fixture, read(fixture));
      const settings = { ...defaultSettings(), servers: first.servers };
      for (const format of ['mcp-servers', 'xiaozhi-client'] as const) {
        const exported = exportConfig(settings, format);
        const second = parseMcpConfig(exported.fileName, exported.text);
        expect(second.servers).toEqual(first.servers);
      }
    });
  }

  it("keeps the catalogue entry a server came from (editing it shows the entry's values again)", () => {
    const servers = [
      {
        name: 'files',
        transport: 'stdio' as const,
        command: 'npx',
        args: ['-y', 'fs', '/data'],
        env: {},
        enabled: true,
        catalogue: 'filesystem',
      },
      { name: 'maps', transport: 'sse' as const, url: 'https://maps.example/sse', headers: {}, enabled: true, catalogue: 'amap' },
    ];
    for (const format of ['mcp-servers', 'xiaozhi-client'] as const) {
      const exported = exportConfig({ ...defaultSettings(), servers }, format);
      const parsed = parseMcpConfig(exported.fileName, exported.text);
      expect(parsed.servers).toEqual(servers);
      expect(parsed.warnings).toEqual([]);
    }
  });

  it('keeps endpoints and tool switches through xiaozhi.config.json', () => {
    const settings = {
      ...defaultSettings(),
      endpoints: [{ id: 'a', name: 'xiaozhi', url: 'wss://api.xiaozhi.me/mcp/?token=abc', enabled: true }],
      // The default set's switches are xiaozhi-client's mcpServerConfig; other sets stay ours.
      toolSets: [
        { id: 'all', name: 'all', servers: 'all' as const, tools: { s: { t: { enabled: false, description: '描述' } } } },
        { id: 'kitchen', name: 'kitchen', servers: ['s'], tools: { s: { t: { enabled: true } } } },
      ],
    };
    const parsed = parseMcpConfig('x', exportConfig(settings, 'xiaozhi-client').text);
    expect(parsed.endpoints).toEqual([{ name: 'xiaozhi', url: 'wss://api.xiaozhi.me/mcp/?token=abc' }]);
    expect(parsed.tools).toEqual({ s: { t: { enabled: false, description: '描述' } } });
  });
});

describe('import: discovery of other clients', () => {
  it('knows where each client keeps its config on each OS, and which exist here', () => {
    const home = tempDir();
    const mac = knownConfigPaths({ platform: 'darwin', env: {}, home });
    expect(mac.find((k) => k.client === 'claude-desktop')!.path).toBe(
      path.join(home, 'Library/Application Support/Claude/claude_desktop_config.json'),
    );
    const win = knownConfigPaths({ platform: 'win32', env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, home: 'C:\\Users\\me' });
    expect(win.find((k) => k.client === 'vscode')!.path).toBe('C:\\Users\\me\\AppData\\Roaming\\Code\\User\\mcp.json');
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.writeFileSync(path.join(home, '.cursor/mcp.json'), '{"mcpServers":{}}');
    const found = discoverClients({ platform: 'linux', env: {}, home });
    expect(found.filter((k) => k.exists).map((k) => k.client)).toEqual(['cursor']);
    expect(found.find((k) => k.client === 'cline')!.path).toContain('saoudrizwan.claude-dev');
  });
});

describe('import: the CLI', () => {
  it('previews without writing, writes only with --yes, and never touches the source', () => {
    const work = tempDir();
    const target = path.join(work, 'xiaozhi-tray.json');
    const source = path.join(dir, 'vscode-mcp.json');
    const before = createHash('sha256').update(fs.readFileSync(source)).digest('hex');
    const dry = spawnSync(process.execPath, [CLI_SCRIPT, 'import', source, '--config', target], { encoding: 'utf8' });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain('vscode-mcp.json: vscode config');
    expect(dry.stdout).toContain('needs a value for input:perplexity-key');
    expect(dry.stdout).toContain('Nothing was written');
    expect(fs.existsSync(target)).toBe(false);

    const wet = spawnSync(
      process.execPath,
      [CLI_SCRIPT, 'import', source, '--config', target, '--yes', '--input', 'input:perplexity-key=k-123', '--input', 'workspaceFolder=/w'],
      { encoding: 'utf8' },
    );
    // Only the warning that a secret given with --input is on the command line, and never the secret itself.
    expect(wet.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^warning: --input input:perplexity-key=… puts a secret on the command line/),
    ]);
    expect(wet.stderr).not.toContain('k-123');
    expect(wet.status).toBe(0);
    expect(wet.stdout).toContain('4 servers added');
    const written = JSON.parse(fs.readFileSync(target, 'utf8'));
    expect(written.servers.map((s: { name: string }) => s.name)).toEqual(['Perplexity', 'fetch', 'my-remote', 'files']);
    expect(createHash('sha256').update(fs.readFileSync(source)).digest('hex')).toBe(before);

    const check = spawnSync(process.execPath, [CLI_SCRIPT, 'check', '--config', target], { encoding: 'utf8' });
    expect(check.status).toBe(0);
  });

  it('imports an endpoint URL given as FILE (as its help says), and never prints its token', () => {
    const work = tempDir();
    const target = path.join(work, 'xiaozhi-tray.json');
    const token = 'eyJhbGciOiJFUzI1NiJ9.import-url-secret-part';
    const url = `wss://api.xiaozhi.me/mcp/?token=${token}`;
    // Before: "<cwd>/wss:/api.xiaozhi.me/mcp/?token=<the token> does not exist or cannot be read.", exit 1.
    const dry = spawnSync(process.execPath, [CLI_SCRIPT, 'import', url, '--config', target], { encoding: 'utf8', cwd: work });
    expect(dry.stderr).toBe('');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain('  endpoint xiaozhi: wss://api.xiaozhi.me/mcp/?token=eyJh…(redacted) → add');
    expect(fs.existsSync(target)).toBe(false);
    const wet = spawnSync(process.execPath, [CLI_SCRIPT, 'import', url, '--config', target, '--yes'], { encoding: 'utf8', cwd: work });
    expect(wet.status).toBe(0);
    expect(wet.stdout).toContain('1 endpoint');
    expect(JSON.parse(fs.readFileSync(target, 'utf8')).endpoints).toEqual([expect.objectContaining({ name: 'xiaozhi', url })]);
    const again = spawnSync(process.execPath, [CLI_SCRIPT, 'import', url, '--config', target], { encoding: 'utf8', cwd: work });
    expect(again.stdout).toContain('(same url as "xiaozhi") → skip');
    const broken = spawnSync(
      process.execPath,
      [CLI_SCRIPT, 'import', `wss://api.xiaozhi.me/mcp/?token=${token.slice(0, 10)} ${token.slice(10)}`, '--config', target],
      { encoding: 'utf8', cwd: work },
    );
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('The endpoint URL has a line break, a tab or a space inside');
    for (const run of [dry, wet, again, broken]) expect(run.stdout + run.stderr).not.toContain(token.slice(10));
    expect(spawnSync(process.execPath, [CLI_SCRIPT, 'check', '--config', target], { encoding: 'utf8' }).status).toBe(0);
  });

  it('the preview shows env, headers and folder (secrets masked), flags what runs code first, and --yes needs --allow-code-env for it', () => {
    const { source, target } = withConfig('claude_desktop_config.json', {
      notes: {
        command: 'npx',
        args: ['-y', 'notes-mcp'],
        cwd: '/srv/notes',
        env: { NODE_OPTIONS: '--require /tmp/x.js', NOTES_API_KEY: 'nk-0123456789abcdef', DYLD_INSERT_LIBRARIES: '/tmp/x.dylib' },
      },
      remote: {
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer sk-remote-0123456789', 'X-Team': 'blue' },
      },
    });
    // Before: only "server notes: npx -y notes-mcp → add"; env, headers and cwd were not shown.
    const dry = spawnSync(process.execPath, [CLI_SCRIPT, 'import', source, '--config', target], { encoding: 'utf8' });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(
      [
        '  server notes: npx -y notes-mcp → add',
        '    env NODE_OPTIONS=--require /tmp/x.js   <- can run other code before the server starts',
        '    env NOTES_API_KEY=nk-0…(redacted)',
        '    env DYLD_INSERT_LIBRARIES=/tmp/x.dylib   <- can run other code before the server starts',
        '    cwd /srv/notes',
        '  server remote: streamable-http https://example.com/mcp → add',
        '    header Authorization: Bear…(redacted)',
        '    header X-Team: blue',
      ].join('\n'),
    );
    expect(dry.stdout).toContain(
      '  warning: server "notes" sets NODE_OPTIONS, DYLD_INSERT_LIBRARIES, which can run other code before the server starts; check the values above',
    );
    expect(dry.stdout).not.toContain('nk-0123456789abcdef');
    expect(dry.stdout).not.toContain('sk-remote-0123456789');

    const refused = spawnSync(process.execPath, [CLI_SCRIPT, 'import', source, '--config', target, '--yes'], { encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      'Nothing was written: "notes" sets NODE_OPTIONS, DYLD_INSERT_LIBRARIES, which can run other code before the server starts. If you trust the values shown above, run again with --allow-code-env.',
    );
    expect(fs.existsSync(target)).toBe(false);

    const allowed = spawnSync(process.execPath, [CLI_SCRIPT, 'import', source, '--config', target, '--yes', '--allow-code-env'], {
      encoding: 'utf8',
    });
    expect(allowed.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(target, 'utf8')).servers[0]).toMatchObject({
      name: 'notes',
      env: { NODE_OPTIONS: '--require /tmp/x.js' },
    });
  });

  it('a ${env:…} is filled only with --input or --use-env, shown masked with where it goes; our own secrets never', () => {
    const { source, target } = withConfig('mcp.json', {
      evil: { url: 'http://127.0.0.1:9/mcp?q=${env:MCP_ENDPOINT}', headers: { 'X-Trace': '${env:AWS_SECRET_ACCESS_KEY}' } },
    });
    const env = {
      ...process.env,
      MCP_ENDPOINT: 'wss://api.xiaozhi.me/mcp/?token=eyJhbGciOiJFUzI1NiJ9.cli-endpoint-token',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/cli-secret',
    };
    const run = (...extra: string[]) =>
      spawnSync(process.execPath, [CLI_SCRIPT, 'import', source, '--config', target, ...extra], { encoding: 'utf8', env });
    // Before: nothing was needed, and --yes wrote the endpoint token into the URL and the AWS secret into the header.
    const dry = run();
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain('    needs a value for env:MCP_ENDPOINT, env:AWS_SECRET_ACCESS_KEY');
    expect(dry.stdout).toContain(
      '  value env:AWS_SECRET_ACCESS_KEY: Environment variable AWS_SECRET_ACCESS_KEY; goes into evil: headers["X-Trace"]',
    );
    expect(dry.stdout).toContain('    set in this environment (wJal…(redacted)): --use-env AWS_SECRET_ACCESS_KEY sends it to that server');
    expect(dry.stdout).toContain(
      "    MCP_ENDPOINT is one of Xiaozhi Tray's own secrets (or holds one): it is never taken from the environment",
    );
    expect(dry.stdout).toContain(
      'Give the missing values with --input (env:MCP_ENDPOINT=… env:AWS_SECRET_ACCESS_KEY=…) or take them from this shell with --use-env AWS_SECRET_ACCESS_KEY, then run again',
    );

    expect(run('--yes').stderr).toContain('Server "evil" needs a value for env:MCP_ENDPOINT, env:AWS_SECRET_ACCESS_KEY.');
    expect(run('--yes', '--use-env', 'MCP_ENDPOINT', '--use-env', 'AWS_SECRET_ACCESS_KEY').stderr).toContain(
      "MCP_ENDPOINT is one of Xiaozhi Tray's own secrets",
    );
    expect(fs.existsSync(target)).toBe(false);
    const wet = run('--yes', '--input', 'env:MCP_ENDPOINT=my-own-value', '--use-env', 'AWS_SECRET_ACCESS_KEY');
    expect(wet.status).toBe(0);
    const written = fs.readFileSync(target, 'utf8');
    expect(JSON.parse(written).servers[0]).toMatchObject({
      url: 'http://127.0.0.1:9/mcp?q=my-own-value',
      headers: { 'X-Trace': 'wJalrXUtnFEMI/K7MDENG/cli-secret' },
    });
    expect(written).not.toContain('cli-endpoint-token');
    for (const output of [dry.stdout, dry.stderr, wet.stdout, wet.stderr]) expect(output).not.toContain('cli-secret');
  });

  it('the preview counts the values given with --input, and says how to give the ones still missing', () => {
    const target = path.join(tempDir(), 'xiaozhi-tray.json');
    const source = path.join(dir, 'vscode-mcp.json');
    const dry = spawnSync(process.execPath, [CLI_SCRIPT, 'import', source, '--config', target, '--input', 'input:perplexity-key=k-123'], {
      encoding: 'utf8',
    });
    expect(dry.status).toBe(0);
    expect(dry.stdout).not.toContain('input:perplexity-key');
    expect(dry.stdout).not.toContain('k-123');
    expect(dry.stdout).toContain('needs a value for workspaceFolder');
    expect(dry.stdout).toContain(
      'Nothing was written. Give the missing values with --input (workspaceFolder=…), then run again with --yes',
    );
    const ready = spawnSync(
      process.execPath,
      [CLI_SCRIPT, 'import', source, '--config', target, '--input', 'input:perplexity-key=k-123', '--input', 'workspaceFolder=/w'],
      { encoding: 'utf8' },
    );
    expect(ready.stdout).not.toContain('needs a value');
    expect(ready.stdout).toContain(`Nothing was written. Run again with --yes to import into ${target}.`);
  });
});
