import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { Bridge } from '../../../src/main/core/bridge/bridge';
import { loadConfigFile } from '../../../src/main/core/config/load-config';
import { FileSettingsStore } from '../../../src/main/core/config/settings-store';
import { exportConfig } from '../../../src/main/core/import/export-config';
import { LogBook } from '../../../src/main/core/logs/log-book';
import { fixtureServer, type Harness, makeBridge } from '../../helpers/bridge-harness';
import { tempDirs } from '../../helpers/temp-dirs';
import { waitFor } from '../../helpers/wait';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZWNyZXQifQ.dG9wLXNlY3JldC1zaWc';
const OPENAI = 'oa-9f8e7d6c5b4a39281706';
const DB_PASS = 'hunter2-but-longer';
const PASSPHRASE = 'correct horse battery staple';
const HEADER_KEY = 'hk-2b3c4d5e6f7a8b9c0d1e';
const URL_KEY = 'qk-7766554433221100aabb';
const ARG_KEY = 'ak-0099887766554433';
const ARG_TOKEN = 'at-1029384756abcdef';

let harness: Harness | undefined;
let closeHttp: (() => void) | undefined;
const tempDir = tempDirs('xt-secrets-');
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  closeHttp?.();
  closeHttp = undefined;
});

const everySecret = [TOKEN, 'dG9wLXNlY3JldC1zaWc', OPENAI, DB_PASS, PASSPHRASE, HEADER_KEY, URL_KEY, ARG_KEY, ARG_TOKEN];
function expectNoSecret(text: string): void {
  for (const secret of everySecret) expect(text, `leaks ${secret}`).not.toContain(secret);
}

/** A remote server that refuses every request and echoes the key it was given in its error. */
async function echoingRefusal(): Promise<string> {
  const server = http.createServer((req, res) => {
    res.writeHead(401, { 'Content-Type': 'text/plain' });
    res.end(`invalid key ${String(req.headers['x-api-key'])} for ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  closeHttp = () => server.close();
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp?key=${URL_KEY}`;
}

describe('no secret leaves the engine', () => {
  it('redacts known secrets from server status (lastError, stderrTail), history, call events and errors', async () => {
    const url = await echoingRefusal();
    harness = makeBridge({
      endpoints: [{ id: 'e', name: 'home', url: `ws://127.0.0.1:1/mcp/?token=${TOKEN}`, enabled: false }],
      servers: [
        fixtureServer(
          'fx',
          { OPENAI_KEY: OPENAI, DB_PASS, PASSPHRASE },
          { args: [path.resolve(__dirname, '../../fixtures/fixture-server.mjs'), `--api-key=${ARG_KEY}`, '--token', ARG_TOKEN] },
        ),
        { name: 'remote', transport: 'streamable-http', url, headers: { 'X-Api-Key': HEADER_KEY } },
      ],
    });
    const calls: string[] = [];
    harness.bridge.on('call', (record) => calls.push(JSON.stringify(record)));
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    // A server that prints every secret it knows, and a call whose arguments and result carry them.
    const line = `${OPENAI} ${DB_PASS} ${PASSPHRASE} ${TOKEN} ${HEADER_KEY} ${ARG_KEY} ${ARG_TOKEN}`;
    await harness.bridge.api.callTool({ name: 'stderr', arguments: { text: line } });
    const tried = await harness.bridge.api.callTool({ name: 'echo', arguments: { text: line } });
    expectNoSecret(tried.text);
    await waitFor(() => harness!.bridge.state().servers[0]!.stderrTail.some((l) => l.includes('redacted')), 5000, 'the stderr line');
    await waitFor(() => harness!.bridge.state().servers[1]!.lastError !== undefined, 10_000, 'the remote failure');

    const state = JSON.stringify(harness.bridge.state());
    expect(state).toContain('redacted');
    expectNoSecret(state);
    expectNoSecret(JSON.stringify(await harness.bridge.api.getHistory()));
    expectNoSecret(calls.join('\n'));
    expectNoSecret(JSON.stringify(harness.logBook.entries()));
    // A command that fails on a value the user gave: its error is redacted too.
    const failure = await harness.bridge.api
      .updateEndpoint({ id: 'e', url: `http://127.0.0.1/?x=${OPENAI}` })
      .catch((error: Error) => error.message);
    expectNoSecret(String(failure));
  });

  it('redacts a known secret with quotes, backslashes or spaces also where it stands JSON-escaped or percent-encoded', async () => {
    const quoted = 'pas"s\\word-with-quote';
    const spaced = 'two words and ünïcode';
    harness = makeBridge({ servers: [fixtureServer('fx', { DB_PASS: quoted, PASSPHRASE: spaced })] });
    const calls: { arguments: string; result: string }[] = [];
    harness.bridge.on('call', (record) => calls.push(record));
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    // Call records keep the arguments as JSON text: the secret stands there escaped.
    await harness.bridge.api.callTool({ name: 'echo', arguments: { text: quoted } });
    await harness.bridge.api.callTool({ name: 'stderr', arguments: { text: `next=/login?q=${encodeURIComponent(spaced)}` } });
    await waitFor(() => harness!.bridge.state().servers[0]!.stderrTail.some((l) => l.includes('next=')), 5000, 'the stderr line');
    await waitFor(() => calls.length === 2, 5000, 'two call events');
    const shown = [
      ...calls.flatMap((c) => [c.arguments, c.result]),
      ...(await harness.bridge.api.getHistory()).flatMap((c) => [c.arguments, c.result]),
      ...harness.bridge.state().servers[0]!.stderrTail,
      ...harness.logBook.entries().map((e) => e.message),
    ];
    for (const text of shown) {
      for (const form of [quoted, JSON.stringify(quoted).slice(1, -1), encodeURIComponent(spaced)])
        expect(text, `shows ${form}`).not.toContain(form);
    }
    // What the window parses out of the arguments is masked too.
    expect(JSON.parse(calls[0]!.arguments).text).not.toContain(quoted);
  });

  it('masks secret env names the old heuristic missed, URL query keys and --api-key style arguments, and keeps them on save', async () => {
    harness = makeBridge({
      servers: [
        fixtureServer(
          'fx',
          { OPENAI_KEY: OPENAI, DB_PASS, PASSPHRASE, LANGUAGE: 'zh-CN' },
          { args: ['server.js', `--api-key=${ARG_KEY}`, '--token', ARG_TOKEN, '--port', '8080'] },
        ),
        {
          name: 'remote',
          transport: 'sse',
          url: `https://mcp.example.com/sse?key=${URL_KEY}&token=${ARG_TOKEN}&api_key=${ARG_KEY}&region=cn`,
          headers: {},
        },
      ],
    });
    const shown = await harness.bridge.api.getSettings();
    expectNoSecret(JSON.stringify(shown));
    const fx = shown.servers[0]!;
    expect(fx.transport === 'stdio' && fx.env.LANGUAGE).toBe('zh-CN');
    expect(fx.transport === 'stdio' && fx.args.slice(-2)).toEqual(['--port', '8080']);
    expect(shown.servers[1]!.transport === 'sse' && shown.servers[1]!.url).toContain('region=cn');

    // The window edits the masked copy and sends it back: the real values stay.
    await harness.bridge.api.updateServer({ name: 'fx', server: fx });
    await harness.bridge.api.updateServer({ name: 'remote', server: shown.servers[1]! });
    const saved = harness.store.load();
    const savedFx = saved.servers.find((s) => s.name === 'fx')!;
    expect(savedFx.transport === 'stdio' && savedFx.env).toMatchObject({ OPENAI_KEY: OPENAI, DB_PASS, PASSPHRASE });
    expect(savedFx.transport === 'stdio' && savedFx.args).toEqual([
      'server.js',
      `--api-key=${ARG_KEY}`,
      '--token',
      ARG_TOKEN,
      '--port',
      '8080',
    ]);
    const savedRemote = saved.servers.find((s) => s.name === 'remote')!;
    expect(savedRemote.transport === 'sse' && savedRemote.url).toBe(
      `https://mcp.example.com/sse?key=${URL_KEY}&token=${ARG_TOKEN}&api_key=${ARG_KEY}&region=cn`,
    );
  });

  it('keeps two secrets that look alike when masked apart, and a URL key when its host changes', async () => {
    const a = 'sk-proj-AAAA1111aaaa';
    const b = 'sk-proj-BBBB2222bbbb';
    harness = makeBridge({
      servers: [
        fixtureServer('fx', {}, { args: ['server.js', '--api-key', a, '--admin-token', b, '--db-pass', 'hunter22', '--pin', 'abc12345'] }),
        { name: 'remote', transport: 'sse', url: `https://old.example.com/sse?key=${URL_KEY}&region=cn`, headers: {} },
      ],
    });
    const shown = (await harness.bridge.api.getSettings()).servers;
    const fx = shown[0]!;
    const remote = shown[1]!;
    if (fx.transport !== 'stdio' || remote.transport !== 'sse') throw new Error('unexpected transports');
    // Both show as sk-p…(redacted): only their places tell them apart.
    expect(fx.args[2]).toBe(fx.args[4]);
    await harness.bridge.api.updateServer({ name: 'fx', server: { ...fx, callTimeoutMs: 5000 } });
    await harness.bridge.api.updateServer({
      name: 'remote',
      server: { ...remote, url: remote.url.replace('old.example.com', 'new.example.com') },
    });
    const saved = harness.store.load().servers;
    expect(saved[0]!.transport === 'stdio' && saved[0]!.args).toEqual([
      'server.js',
      '--api-key',
      a,
      '--admin-token',
      b,
      '--db-pass',
      'hunter22',
      '--pin',
      'abc12345',
    ]);
    expect(saved[1]!.transport === 'sse' && saved[1]!.url).toBe(`https://new.example.com/sse?key=${URL_KEY}&region=cn`);
    // A masked value that cannot be told apart is refused, never saved as the mask.
    await expect(
      harness.bridge.api.updateServer({ name: 'fx', server: { ...fx, args: ['server.js', fx.args[4]!, fx.args[2]!] } }),
    ).rejects.toThrow(/could be more than one/);
    await expect(harness.bridge.api.updateServer({ name: 'fx', server: { ...fx, args: ['--x', 'zzzz…(redacted)'] } })).rejects.toThrow(
      /args\[1\] of server "fx" is still masked/,
    );
    expect(JSON.stringify(harness.store.load())).not.toContain('(redacted)');
  });

  it('masks URL passwords (args, env) and header arguments everywhere, and history keeps a rotated key masked', async () => {
    const dbPassword = 'Pg-S3cretPassw0rd';
    const headerKey = 'hdr-abcdef1234567890';
    const oldKey = 'old-key-1234567890abcd';
    harness = makeBridge({
      servers: [
        fixtureServer(
          'fx',
          { OPENAI_KEY: oldKey, DATABASE_URL: `postgresql://admin:${dbPassword}@db.local/app` },
          {
            args: [
              path.resolve(__dirname, '../../fixtures/fixture-server.mjs'),
              `postgresql://admin:${dbPassword}@db.local/app`,
              '--header',
              `Authorization: Bearer ${headerKey}`,
            ],
          },
        ),
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    // xiaozhi calls a tool with the key in its arguments while no window listens.
    await harness.bridge.toolHub.call('echo', { text: `key ${oldKey} and ${dbPassword}` }, { caller: 'home' });
    await harness.bridge.api.callTool({
      name: 'stderr',
      arguments: { text: `dsn postgresql://admin:${dbPassword}@db.local/app header ${headerKey}` },
    });
    await waitFor(() => harness!.bridge.state().servers[0]!.stderrTail.some((l) => l.startsWith('dsn')), 5000, 'the stderr line');
    // The user rotates the key: the old one is no longer known, yet must stay masked.
    const fx = (await harness.bridge.api.getSettings()).servers[0]!;
    if (fx.transport !== 'stdio') throw new Error('stdio expected');
    await harness.bridge.api.updateServer({ name: 'fx', server: { ...fx, env: { ...fx.env, OPENAI_KEY: 'new-key-0987654321zyxw' } } });
    const everything = JSON.stringify({
      settings: await harness.bridge.api.getSettings(),
      state: harness.bridge.state(),
      history: await harness.bridge.api.getHistory(),
      logs: harness.logBook.entries(),
    });
    for (const secret of [dbPassword, headerKey, oldKey, 'new-key-0987654321zyxw']) expect(everything, secret).not.toContain(secret);
    const saved = harness.store.load().servers[0]!;
    expect(saved.transport === 'stdio' && saved.env.DATABASE_URL).toBe(`postgresql://admin:${dbPassword}@db.local/app`);
    expect(saved.transport === 'stdio' && saved.args[1]).toBe(`postgresql://admin:${dbPassword}@db.local/app`);
    expect(saved.transport === 'stdio' && saved.args[3]).toBe(`Authorization: Bearer ${headerKey}`);
  });

  it('never exports the endpoint MCP_ENDPOINT added for the run', () => {
    const dir = tempDir();
    const file = path.join(dir, 'tray.json');
    fs.writeFileSync(file, JSON.stringify({ servers: [] }));
    const loaded = loadConfigFile(file, { MCP_ENDPOINT: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}` });
    expect(exportConfig(loaded.settings, 'xiaozhi-client').text).not.toContain(TOKEN);
  });

  it('never writes MCP_ENDPOINT from the environment into the config file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'tray.json');
    fs.writeFileSync(file, JSON.stringify({ endpoints: [], servers: [] }));
    const loaded = loadConfigFile(file, { MCP_ENDPOINT: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}` });
    expect(loaded.settings.endpoints).toHaveLength(1);
    const store = new FileSettingsStore(file, loaded.settings);
    const bridge = new Bridge({ store, logBook: new LogBook() });
    return bridge.api.updatePreferences({ ui: { theme: 'dark' } }).then(() => {
      const written = fs.readFileSync(file, 'utf8');
      expect(written).not.toContain(TOKEN);
      expect(JSON.parse(written).ui.theme).toBe('dark');
      // Still served for this run.
      expect(store.load().endpoints).toHaveLength(1);
    });
  });

  it("hides an endpoint's token on its card and in the log wherever its address carries it (path, fragment, user, an unnamed parameter)", async () => {
    const tokens = ['a8f5f167f44f4964e6c998dee827110c', 'b8f5f167f44f4964e6c998dee827110d', 'c8f5f167f44f4964e6c998dee827110e'];
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.abcdefghijkl';
    const urls = [
      `ws://127.0.0.1:1/mcp/${tokens[0]}`,
      `ws://127.0.0.1:1/mcp#token=${tokens[1]}`,
      `ws://${tokens[2]}@127.0.0.1:1/mcp`,
      `ws://127.0.0.1:1/mcp/?t=${jwt}`,
    ];
    harness = makeBridge({ endpoints: urls.map((url, i) => ({ id: `e${i}`, name: `e${i}`, url, enabled: true })) });
    harness.bridge.start();
    await waitFor(() => harness!.logBook.entries().some((e) => e.message.startsWith('connecting to')), 5000, 'a connection try');
    const shown = JSON.stringify({ state: harness.bridge.state(), logs: harness.logBook.entries() });
    for (const secret of [...tokens, jwt.slice(20)]) expect(shown, secret).not.toContain(secret);
    expect(harness.bridge.state().endpoints[0]!.url).toBe('ws://127.0.0.1:1/mcp/a8f5…(redacted)');
  });
});
