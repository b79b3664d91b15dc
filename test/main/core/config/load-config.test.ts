import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadConfigFile, parseConfigText } from '../../../../src/main/core/config/load-config';
import { FileSettingsStore } from '../../../../src/main/core/config/settings-store';
import { defaultSettings, defaultToolSwitches } from '../../../../src/shared/settings';
import { problems } from '../../../helpers/config-problems';

const configs = path.resolve(__dirname, '../../../fixtures/configs');

describe('loading the configs users already have', () => {
  it('an endpoint of our own file needs only its url: an id no other endpoint has and a name are made up', () => {
    const text = JSON.stringify({
      endpoints: [
        { url: 'wss://a.example/mcp/?token=one' },
        { id: 'endpoint-1', name: 'hall', url: 'wss://b.example/mcp/?token=two' },
        { url: 'wss://c.example/mcp/' },
      ],
    });
    expect(parseConfigText('x.json', text, {}).settings.endpoints.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: 'endpoint-2', name: 'xiaozhi' },
      { id: 'endpoint-1', name: 'hall' },
      { id: 'endpoint-3', name: 'xiaozhi-3' },
    ]);
  });

  it("reads xiaozhi-client's xiaozhi.config.json as it is", () => {
    const { settings, format } = loadConfigFile(path.join(configs, 'xiaozhi.config.json'), {});
    expect(format).toBe('xiaozhi-client');
    expect(settings.endpoints).toEqual([
      { id: 'endpoint-1', name: 'xiaozhi', url: expect.stringContaining('wss://api.xiaozhi.me/mcp/?token='), enabled: true },
    ]);
    const byName = Object.fromEntries(settings.servers.map((s) => [s.name, s]));
    expect(byName.calculator).toMatchObject({ transport: 'stdio', command: 'node', args: ['./mcpServers/calculator.js'] });
    expect(byName.datetime).toMatchObject({ env: { TZ: 'Asia/Shanghai' } });
    expect(byName.amap).toMatchObject({ transport: 'streamable-http' });
    expect(byName['legacy-sse']).toMatchObject({ transport: 'sse' });
    expect(byName['plain-http']).toMatchObject({ transport: 'streamable-http' });
    expect(defaultToolSwitches(settings)).toEqual({
      calculator: { calculator: { enabled: true, description: '计算器' }, sqrt: { enabled: false } },
    });
    expect(settings.modelscope.apiKey).toBe('ms-0123456789abcdef');
    expect(settings.connection).toMatchObject({ heartbeatIntervalMs: 30000, heartbeatTimeoutMs: 10000, reconnectBaseMs: 5000 });
  });

  it("reads the official example's mcp_config.json, with MCP_ENDPOINT adding the endpoint", () => {
    const url = 'wss://api.xiaozhi.me/mcp/?token=abc.def.ghi';
    const { settings, format } = loadConfigFile(path.join(configs, 'mcp_config.json'), { MCP_ENDPOINT: url });
    expect(format).toBe('xiaozhi-example');
    expect(settings.endpoints).toEqual([{ id: 'env-mcp-endpoint', name: 'MCP_ENDPOINT', url, enabled: true }]);
    const byName = Object.fromEntries(settings.servers.map((s) => [s.name, s]));
    expect(byName['remote-sse-server']).toMatchObject({ transport: 'sse', enabled: false });
    expect(byName['remote-http-server']).toMatchObject({ transport: 'streamable-http', headers: { Authorization: 'Bearer abc' } });
    expect(byName['local-stdio-calculator']).toMatchObject({ transport: 'stdio', command: 'python', args: ['-m', 'calculator'] });
  });

  it('adds MCP_ENDPOINT to a config that has endpoints of its own, once', () => {
    const text = JSON.stringify({ mcpEndpoint: 'wss://a.example/mcp/?token=one' });
    expect(parseConfigText('x.json', text, { MCP_ENDPOINT: 'wss://b.example/mcp/?token=two' }).settings.endpoints).toHaveLength(2);
    expect(parseConfigText('x.json', text, { MCP_ENDPOINT: 'wss://a.example/mcp/?token=one' }).settings.endpoints).toHaveLength(1);
  });

  it('says where a syntax error is, by line and column', () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "node" }\n    "b": {}\n  }\n}';
    expect(problems(() => parseConfigText('broken.json', text, {}))[0]).toMatch(/^line 4, column 5: invalid JSON: expected ","/);
  });

  it('says which value is wrong in our own format, by JSON path and line', () => {
    const text = JSON.stringify(
      { endpoints: [{ id: 'a', name: 'home', url: 'https://not-a-websocket' }], servers: [{ name: 'x', transport: 'stdio', command: '' }] },
      null,
      2,
    );
    const found = problems(() => parseConfigText('mine.json', text, {}));
    expect(found).toContainEqual(expect.stringMatching(/^line 6, column \d+, at endpoints\[0\]\.url: must be a ws:\/\/ or wss:\/\/ URL$/));
    expect(found).toContainEqual(expect.stringMatching(/at servers\[0\]\.command: must name a program to run/));
  });

  it('says a file of a newer settings version was written by a newer app, not that its version "must be 3"', () => {
    const text = JSON.stringify({ version: 4, endpoints: [] }, null, 2);
    let problem: unknown;
    try {
      parseConfigText('newer.json', text, {});
    } catch (error) {
      problem = (error as { problems?: { problem?: unknown }[] }).problems?.[0]?.problem;
    }
    expect(problems(() => parseConfigText('newer.json', text, {}))).toEqual([
      'line 2, column 14, at version: written by a newer xiaozhi-tray (settings version 4; this one reads up to 3): update xiaozhi-tray to use it',
    ]);
    expect(problem).toEqual({ code: 'config.newerVersion', params: { version: 4, known: 3 } });
  });

  it('says which server entry of a foreign file is wrong', () => {
    const text = '{\n  "mcpServers": {\n    "bad": { "type": "carrier-pigeon" },\n    "nothing": {}\n  }\n}';
    const found = problems(() => parseConfigText('mcp.json', text, {}));
    expect(found).toContainEqual(
      'line 3, column 22, at mcpServers.bad.type: unknown transport "carrier-pigeon" (expected stdio, sse or http)',
    );
    expect(found).toContainEqual(expect.stringContaining('at mcpServers.nothing: has neither "command"'));
  });

  it("reads a file of only this app's settings as its own, as the README's download-source example is", () => {
    const china = parseConfigText('xiaozhi-tray.json', '{ "mirrors": { "preset": "china" } }', {});
    expect(china.format).toBe('xiaozhi-tray');
    expect(china.settings.mirrors.preset).toBe('china');
    expect(parseConfigText('xiaozhi-tray.json', '{"ui": {"language": "zh-CN"}}', {}).settings.ui.language).toBe('zh-CN');
    // Other apps' files that share a key name are still theirs.
    expect(parseConfigText('mcp.json', '{"servers": {"a": {"command": "npx"}}}', {}).format).not.toBe('xiaozhi-tray');
    expect(parseConfigText('xiaozhi.config.json', '{"mcpEndpoint": "", "modelscope": {}}', {}).format).not.toBe('xiaozhi-tray');
  });

  it('refuses JSON that is no MCP config, and files that are too big', () => {
    expect(problems(() => parseConfigText('package.json', '{"name": "x"}', {}))[0]).toMatch(/not an MCP config: looked for "mcpServers"/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-cfg-'));
    try {
      const big = path.join(dir, 'big.json');
      fs.writeFileSync(big, ' '.repeat(5 * 1024 * 1024));
      expect(problems(() => loadConfigFile(big, {}))[0]).toMatch(/at most 4 MB/);
      expect(problems(() => loadConfigFile(path.join(dir, 'missing.json'), {}))[0]).toMatch(/does not exist/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes its own file atomically and never half-writes it on invalid settings', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-store-'));
    try {
      const file = path.join(dir, 'config.json');
      const store = new FileSettingsStore(file, defaultSettings());
      store.save({ ...defaultSettings(), naming: 'always-prefix' });
      const written = fs.readFileSync(file, 'utf8');
      expect(JSON.parse(written).naming).toBe('always-prefix');
      expect(() => store.save({ ...defaultSettings(), endpoints: [{ id: 'x', name: 'x', url: 'nope', enabled: true }] })).toThrow();
      expect(fs.readFileSync(file, 'utf8')).toBe(written);
      expect(fs.readdirSync(dir)).toEqual(['config.json']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
