import { describe, expect, it } from 'vitest';

import { parseConfigText } from '../../../../src/main/core/config/load-config';
import { makeBridge } from '../../../helpers/bridge-harness';
import { problems } from '../../../helpers/config-problems';

const ENDPOINT = 'wss://api.xiaozhi.me/mcp/?token=abc.def.ghi';

describe('keys that reach a prototype', () => {
  it('are refused in a config file, each with its line and path, instead of hiding an endpoint', () => {
    const text = `{
  "__proto__": { "endpoints": [{ "id": "x", "name": "hidden", "url": "${ENDPOINT}" }] },
  "servers": [{ "name": "a", "transport": "stdio", "command": "node", "env": { "constructor": "1" } }]
}`;
    expect(problems(() => parseConfigText('tray.json', text, {}))).toEqual([
      'line 2, column 3, at __proto__: the key "__proto__" is not allowed (it could change what other keys mean)',
      'line 3, column 80, at servers[0].env.constructor: the key "constructor" is not allowed (it could change what other keys mean)',
    ]);
  });

  it('are reported with every other problem of the file in one pass, not instead of them', () => {
    const text = `{
  "__proto__": {},
  "servers": [{ "name": "a", "transport": "pigeon", "command": "node" }, { "name": "b", "transport": "stdio", "command": "node", "constructor": 1 }],
  "endpoints": [{ "id": "e", "name": "home", "url": "http://not-a-socket" }]
}`;
    const found = problems(() => parseConfigText('tray.json', text, {}));
    expect(found.filter((p) => /is not allowed/.test(p))).toHaveLength(2);
    expect(found.some((p) => /servers\[0\]\.transport/.test(p))).toBe(true);
    expect(found.some((p) => /endpoints\[0\]\.url/.test(p))).toBe(true);
    const foreign = problems(() =>
      parseConfigText('mcp.json', '{"mcpServers": {"a": {"command": "x", "prototype": {}}, "b": {"url": 5}}}', {}),
    );
    expect(foreign.some((p) => /prototype/.test(p)) && foreign.some((p) => /mcpServers\.b/.test(p))).toBe(true);
  });

  it('are refused in foreign formats too (JSON and TOML)', () => {
    expect(problems(() => parseConfigText('mcp.json', '{"mcpServers": {"a": {"command": "x", "prototype": {}}}}', {}))[0]).toMatch(
      /mcpServers\.a\.prototype: the key "prototype" is not allowed/,
    );
    expect(
      problems(() => parseConfigText('config.toml', '[mcp_servers.a]\ncommand = "x"\n[mcp_servers.a.env]\n__proto__ = "y"\n', {}))[0],
    ).toMatch(/__proto__/);
  });

  it('are refused in commands from any window, naming where', async () => {
    const { bridge } = makeBridge({});
    const input = JSON.parse('{"ui": {"__proto__": {"theme": "dark"}}}');
    await expect(bridge.api.updatePreferences(input)).rejects.toThrow('Invalid input for "updatePreferences" at ui.__proto__');
  });
});

describe('check reports every problem in one pass', () => {
  it('lists structural problems and duplicates of a native config together', () => {
    const text = JSON.stringify(
      {
        endpoints: [
          { id: 'e', name: 'one', url: 'http://not-a-websocket' },
          { id: 'e', name: 'two', url: ENDPOINT },
        ],
        servers: [
          { name: 'a', transport: 'pigeon', command: 'x' },
          { name: 'b', transport: 'stdio' },
          { name: 'c', transport: 'stdio', command: 'x', callTimeoutMs: -5 },
          { name: 'c', transport: 'stdio', command: 'y' },
        ],
        ui: { language: 'klingon' },
      },
      null,
      2,
    );
    const found = problems(() => parseConfigText('tray.json', text, {}));
    expect(found.join('\n')).toMatch(/endpoints\[0\]\.url/);
    expect(found.join('\n')).toMatch(/endpoints\[1\]\.id: duplicates/);
    expect(found.join('\n')).toMatch(/servers\[0\]\.transport/);
    expect(found.join('\n')).toMatch(/servers\[1\]\.command/);
    expect(found.join('\n')).toMatch(/servers\[2\]\.callTimeoutMs/);
    expect(found.join('\n')).toMatch(/servers\[3\]\.name: duplicates/);
    expect(found.join('\n')).toMatch(/ui\.language/);
    expect(found).toHaveLength(7);
  });

  it('lists server problems and endpoint problems of a foreign config together', () => {
    const text = JSON.stringify({
      mcpEndpoint: ['http://wrong-scheme', ENDPOINT],
      mcpServers: { a: { type: 'pigeon', url: 'https://x' }, b: { args: ['no command'] }, c: { command: 'ok' } },
    });
    const found = problems(() => parseConfigText('xiaozhi.config.json', text, {})).join('\n');
    expect(found).toMatch(/mcpServers\.a/);
    expect(found).toMatch(/mcpServers\.b/);
    expect(found).toMatch(/mcpEndpoint/);
  });
});

describe('config files that are deep or ambiguous', () => {
  it('refuses a file nested deeper than any config is, with where', () => {
    const deep = `{"servers": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(problems(() => parseConfigText('tray.json', deep, {}))[0]).toMatch(
      /^line 1, column \d+: the JSON is nested more than 64 levels deep$/,
    );
  });

  it('refuses a key that appears twice in one object (the hidden one would be dropped)', () => {
    const text = '{\n  "servers": [],\n  "endpoints": [],\n  "servers": [{"name": "a", "transport": "stdio", "command": "x"}]\n}';
    expect(problems(() => parseConfigText('tray.json', text, {}))).toEqual([
      'line 4, column 3, at servers: the key "servers" appears twice in this object; only one can count, so remove the other',
    ]);
  });
});

describe('values no config should hold', () => {
  it('refuses URLs with line breaks or credentials inside, and timers past what Node can run', () => {
    const text = JSON.stringify({
      endpoints: [{ id: 'e', name: 'home', url: 'wss://api.xiaozhi.me/mcp/?token=abc\nExecStart=/bin/sh' }],
      servers: [{ name: 'db', transport: 'sse', url: 'http://alice:S3cret@127.0.0.1:8080/sse' }],
      connection: { heartbeatIntervalMs: 3_000_000_000 },
    });
    const found = problems(() => parseConfigText('tray.json', text, {})).join('\n');
    expect(found).toMatch(/endpoints\[0\]\.url: must not contain spaces or line breaks/);
    expect(found).toMatch(/servers\[0\]\.url: must not contain a user name or password/);
    expect(found).toMatch(/connection\.heartbeatIntervalMs: must be at most 600000/);
    expect(found).not.toContain('S3cret');
  });
});

describe('one endpoint twice', () => {
  const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0d2ljZSJ9.c2ln';

  it('is one endpoint when MCP_ENDPOINT differs only by a slash', () => {
    const once = parseConfigText('mcp.json', JSON.stringify({ mcpEndpoint: `wss://api.xiaozhi.me/mcp/?token=${token}`, mcpServers: {} }), {
      MCP_ENDPOINT: `wss://api.xiaozhi.me/mcp?token=${token}`,
    });
    expect(once.settings.endpoints).toHaveLength(1);
  });

  it('is refused in a file, naming the endpoint that has it first (the relay keeps one connection per token)', () => {
    const foreign = problems(() =>
      parseConfigText(
        'xiaozhi.config.json',
        JSON.stringify({ mcpEndpoint: [`wss://api.xiaozhi.me/mcp/?token=${token}`, `wss://API.xiaozhi.me/mcp/?token=${token}`] }),
        {},
      ),
    );
    expect(foreign).toEqual([expect.stringMatching(/mcpEndpoint\[1\]: is the same endpoint as mcpEndpoint\[0\] \(".*"\): .*keep one/)]);
    const text = `{
  "endpoints": [
    { "id": "a", "name": "home", "url": "wss://api.xiaozhi.me/mcp/?token=${token}" },
    { "id": "b", "name": "home too", "url": " wss://api.xiaozhi.me/mcp?token=${token} " }
  ]
}`;
    expect(problems(() => parseConfigText('tray.json', text, {}))).toEqual([
      expect.stringMatching(/^line 4, column \d+, at endpoints\[1\]\.url: is the same endpoint as endpoints\[0\] \("home"\)/),
    ]);
  });

  it('takes a pasted quote off an endpoint URL, and says so', () => {
    const text = `{ "endpoints": [{ "id": "a", "name": "home", "url": "wss://api.xiaozhi.me/mcp/?token=${token}\\"" }] }`;
    const loaded = parseConfigText('tray.json', text, {});
    expect(loaded.settings.endpoints[0]?.url).toBe(`wss://api.xiaozhi.me/mcp/?token=${token}`);
    expect(loaded.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([expect.stringMatching(/^endpoints\[0\]\.url: .*quote/)]);
  });
});

describe('keys a native config does not know', () => {
  it('are warnings, with the setting meant when it is a typo', () => {
    const text = JSON.stringify(
      {
        endpoint: [],
        servers: [{ name: 'a', transport: 'stdio', command: 'x', arg: ['y'], evn: {} }],
        mcpEndpoint: 'wss://x',
        $schema: './s.json',
      },
      null,
      2,
    );
    const warnings = parseConfigText('tray.json', text, {}).warnings.map((w) => `${w.path}: ${w.message}`);
    expect(warnings).toEqual([
      'endpoint: "endpoint" is not a setting and is ignored; did you mean "endpoints"?',
      'mcpEndpoint: "mcpEndpoint" is not a setting and is ignored',
      'servers[0].arg: "arg" is not a setting and is ignored; did you mean "args"?',
      'servers[0].evn: "evn" is not a setting and is ignored; did you mean "env"?',
    ]);
  });
});
