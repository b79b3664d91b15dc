import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { formatProblem } from '../../../../src/main/core/config/json-text';
import { parseMcpConfig } from '../../../../src/main/core/config/parse-config';
import { buildPreview } from '../../../../src/main/core/import/import-preview';
import { defaultSettings, type ServerSettings, type Settings } from '../../../../src/shared/settings';
import { problems } from '../../../helpers/config-problems';

const dir = path.resolve(__dirname, '../../../fixtures/import');
const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
const parse = (name: string) => parseMcpConfig(name, read(name));
const byName = (servers: ServerSettings[]) => Object.fromEntries(servers.map((s) => [s.name, s]));

describe('import: formats, detected by content', () => {
  it('Claude Desktop', () => {
    const parsed = parse('claude_desktop_config.json');
    expect(parsed.format).toBe('claude-desktop');
    const s = byName(parsed.servers);
    expect(s.filesystem).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/username/Desktop', '/Users/username/Downloads'],
    });
    expect(s.github).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_exampletoken1234567890' } });
  });

  it('Cursor, with remote servers and headers', () => {
    const parsed = parse('cursor-mcp.json');
    expect(parsed.format).toBe('cursor');
    const s = byName(parsed.servers);
    expect(s['remote-server']).toMatchObject({
      transport: 'streamable-http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer cursor-remote-token' },
    });
    expect(s['legacy-sse']).toMatchObject({ transport: 'sse' });
  });

  it('VS Code, asking for ${input:…} and ${workspaceFolder} values and warning about envFile', () => {
    const parsed = parse('vscode-mcp.json');
    expect(parsed.format).toBe('vscode');
    expect(parsed.servers.map((s) => s.name)).toEqual(['Perplexity', 'fetch', 'my-remote', 'files']);
    expect(byName(parsed.servers)['my-remote']).toMatchObject({ transport: 'streamable-http' });
    expect(parsed.inputs).toEqual([
      {
        id: 'input:perplexity-key',
        placeholder: '${input:perplexity-key}',
        description: 'Perplexity API Key',
        password: true,
        where: ['Perplexity: env.PERPLEXITY_API_KEY'],
      },
      {
        id: 'workspaceFolder',
        placeholder: '${workspaceFolder}',
        description: 'The folder to use as ${workspaceFolder}',
        password: false,
        where: ['files: args[0]'],
      },
    ]);
    expect(parsed.needs).toEqual([['input:perplexity-key'], [], [], ['workspaceFolder']]);
    expect(parsed.warnings.map(formatProblem)).toContainEqual(expect.stringMatching(/servers\.files\.envFile: "envFile" is not read/));
  });

  it('Windsurf, with serverUrl, and every ${env:…} an input (never read from the environment while parsing), placed in the file', () => {
    const parsed = parse('windsurf-mcp_config.json');
    expect(parsed.format).toBe('windsurf');
    const s = byName(parsed.servers);
    expect(s.github).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${env:XT_TEST_GITHUB_TOKEN}' } });
    expect(s.figma).toMatchObject({ transport: 'streamable-http', url: 'https://mcp.figma.example/mcp' });
    expect(parsed.inputs.map((i) => [i.id, i.password, i.where])).toEqual([
      ['env:XT_TEST_GITHUB_TOKEN', true, ['github: env.GITHUB_PERSONAL_ACCESS_TOKEN']],
      ['env:XT_TEST_UNSET_FIGMA_TOKEN', true, ['figma: headers.Authorization']],
    ]);
    expect(parsed.placeholders.flat().map((p) => formatProblem({ ...p.at, message: p.id }))).toEqual([
      'line 6, column 48, at mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN: env:XT_TEST_GITHUB_TOKEN',
      'line 10, column 37, at mcpServers.figma.headers.Authorization: env:XT_TEST_UNSET_FIGMA_TOKEN',
    ]);
  });

  it('Cline: a url without type is SSE; disabled stays disabled; timeout is seconds', () => {
    const parsed = parse('cline_mcp_settings.json');
    expect(parsed.format).toBe('cline');
    const s = byName(parsed.servers);
    expect(s['remote-sse']).toMatchObject({ transport: 'sse', enabled: false });
    expect(s['remote-http']).toMatchObject({ transport: 'streamable-http', callTimeoutMs: 90_000 });
    expect(s.local).toMatchObject({ enabled: true, command: 'python' });
  });

  it('Codex config.toml: bearer_token_env_var is an ${env:…} input, placed at that key', () => {
    const parsed = parse('codex-config.toml');
    expect(parsed.format).toBe('codex');
    const s = byName(parsed.servers);
    expect(s.context7).toMatchObject({ command: 'npx', args: ['-y', '@upstash/context7-mcp'], env: { MY_ENV_VAR: 'MY_ENV_VALUE' } });
    expect(s.figma).toMatchObject({
      transport: 'streamable-http',
      enabled: false,
      headers: { Authorization: 'Bearer ${env:XT_TEST_FIGMA_OAUTH_TOKEN}' },
    });
    expect(parsed.placeholders.flat().map((p) => [p.id, p.at.path])).toEqual([
      ['env:XT_TEST_FIGMA_OAUTH_TOKEN', 'mcp_servers.figma.bearer_token_env_var'],
    ]);
  });

  it('bare snippets and a bare endpoint URL', () => {
    const bare = parse('snippet-bare.json');
    expect(bare.format).toBe('server-snippet');
    expect(bare.servers[0]).toMatchObject({ name: 'memory', command: 'npx' });
    const named = parse('snippet-named.json');
    expect(named.servers.map((s) => [s.name, s.transport])).toEqual([
      ['memory', 'stdio'],
      ['weather', 'sse'],
    ]);
    const endpoint = parse('endpoint.txt');
    expect(endpoint).toMatchObject({ format: 'endpoint-url', endpoints: [{ name: 'xiaozhi' }] });
  });

  it("xiaozhi-client and the official example's files", () => {
    const configs = path.resolve(__dirname, '../../../fixtures/configs');
    const client = parseMcpConfig('x', fs.readFileSync(path.join(configs, 'xiaozhi.config.json'), 'utf8'));
    expect(client.format).toBe('xiaozhi-client');
    expect(client.tools.calculator).toEqual({ calculator: { enabled: true, description: '计算器' }, sqrt: { enabled: false } });
    const example = parseMcpConfig('x', fs.readFileSync(path.join(configs, 'mcp_config.json'), 'utf8'));
    expect(example.format).toBe('xiaozhi-example');
  });
});

describe('import: bad input', () => {
  it('reports invalid JSON and TOML by line and column', () => {
    expect(problems(() => parseMcpConfig('a.json', '{\n  "mcpServers": {\n    "x": { "command": "npx" \n  }\n'))[0]).toMatch(
      /^line \d+, column \d+: invalid JSON/,
    );
    expect(problems(() => parseMcpConfig('config.toml', '[mcp_servers.x]\ncommand = "npx\n'))[0]).toMatch(
      /^line 2, column \d+: invalid TOML/,
    );
  });

  it('says what it looked for when the file is not an MCP config', () => {
    expect(problems(() => parseMcpConfig('package.json', '{"name": "left-pad", "version": "1.0.0"}'))[0]).toMatch(
      /looked for "mcpServers".*"servers" \(VS Code\).*\[mcp_servers\] \(Codex\)/,
    );
    expect(problems(() => parseMcpConfig('list.json', '[1,2]'))[0]).toMatch(/not an MCP config/);
  });
});

describe('import: preview', () => {
  it('masks secrets and proposes an action for each conflict', () => {
    const current: Settings = {
      ...defaultSettings(),
      servers: [
        {
          name: 'github',
          transport: 'stdio' as const,
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_exampletoken1234567890' },
          enabled: true,
        },
        {
          name: 'files',
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/username/Desktop', '/Users/username/Downloads'],
          env: {},
          enabled: true,
        },
      ],
    };
    const preview = buildPreview('claude_desktop_config.json', parse('claude_desktop_config.json'), current);
    const [filesystem, github] = preview.servers;
    expect(filesystem).toMatchObject({ action: 'skip', conflict: { kind: 'same-command', existing: 'files' } });
    expect(github).toMatchObject({ action: 'skip', conflict: { kind: 'same-name', existing: 'github' } });
    expect(JSON.stringify(preview)).not.toContain('ghp_exampletoken1234567890');

    const changed: Settings = {
      ...current,
      servers: [{ ...(current.servers[0] as ServerSettings & { transport: 'stdio' }), args: ['-y', 'other'] }],
    };
    const renamed = buildPreview('c.json', parse('claude_desktop_config.json'), changed).servers[1]!;
    expect(renamed).toMatchObject({ action: 'rename', suggestedName: 'github-2' });
  });
});

describe('import: which client wrote it, by file name and place when the shape is shared', () => {
  const withRemote = JSON.stringify({
    mcpServers: { remote: { url: 'https://mcp.example.com/mcp' }, local: { command: 'npx', args: ['-y', 'x'] } },
  });
  it('a claude_desktop_config.json with a remote server is Claude Desktop, not Cursor', () => {
    expect(parseMcpConfig('claude_desktop_config.json', withRemote).format).toBe('claude-desktop');
    expect(parseMcpConfig('/home/me/.config/Claude/claude_desktop_config.json', withRemote).format).toBe('claude-desktop');
  });
  it('the same shape in ~/.cursor/mcp.json is Cursor, and in Windsurf or Cline files theirs', () => {
    const local = JSON.stringify({ mcpServers: { local: { command: 'npx', args: ['-y', 'x'] } } });
    expect(parseMcpConfig('/home/me/.cursor/mcp.json', local).format).toBe('cursor');
    expect(parseMcpConfig('C:\\Users\\me\\.codeium\\windsurf\\mcp_config.json', local).format).toBe('windsurf');
    expect(parseMcpConfig('cline_mcp_settings.json', withRemote).format).toBe('cline');
    // A name that says nothing keeps the judgement by content.
    expect(parseMcpConfig('servers.json', withRemote).format).toBe('cursor');
  });
});
