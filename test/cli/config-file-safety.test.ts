import fs from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import { readableByOthers, storeFor } from '../../src/cli/config-file';
import { loadConfigFile } from '../../src/main/core/config/load-config';
import { translator } from '../../src/shared/i18n/translate';
import type { Problem } from '../../src/shared/problem';
import { logMessage, problemMessage } from '../../src/shared/problem-words';
import { CliHarness } from './cli-harness';

/** What `check`, `import` and a save do with a config file that is odd on purpose. */
const ENDPOINT = 'wss://api.xiaozhi.me/mcp/?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2VjcmV0LXNpZ25hdHVyZQ';
const h = new CliHarness();
afterEach(() => h.cleanup());

describe('${env:…} naming what every object has', () => {
  it.each(['constructor', '__proto__', 'toString'])('${env:%s} is an unset variable, said with its place in the file', async (name) => {
    const file = h.writeConfig(
      { mcpEndpoint: ENDPOINT, mcpServers: { a: { command: 'node', args: ['-e', '1'], env: { X: `\${env:${name}}` } } } },
      'xiaozhi.config.json',
    );
    const check = await h.finished(['check', '--config', file]);
    // Before: "FILE: value.includes is not a function" (exit 1); import: "value.slice is not a function".
    expect(check.code).toBe(1);
    expect(check.err + check.out).not.toMatch(/is not a function/);
    expect(check.err + check.out).toMatch(/mcpServers\.a\.env\.X/);
    const imported = await h.finished(['import', file, '--config', `${h.tempDir()}/mine.json`]);
    expect(imported.err + imported.out).not.toMatch(/is not a function/);
  });
});

describe('an endpoint whose id is the one MCP_ENDPOINT gets', () => {
  it('is kept by a save: only the endpoint MCP_ENDPOINT adds stays out of the file', async () => {
    const dir = h.tempDir();
    const file = h.writeConfig(
      { endpoints: [{ id: 'env-mcp-endpoint', name: 'home', url: ENDPOINT }], servers: [] },
      'xiaozhi-tray.json',
      dir,
    );
    fs.chmodSync(file, 0o600);
    expect((await h.finished(['check', '--config', file])).code).toBe(0);
    const snippet = h.writeConfig({ command: 'node', args: ['x.js'] }, 'snippet.json', dir);
    const imported = await h.finished(['import', snippet, '--config', file, '--yes']);
    expect(imported.code).toBe(0);
    // Before: the file read { "endpoints": [], … }, its token gone.
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { endpoints: { name: string; url: string }[] };
    expect(saved.endpoints).toMatchObject([{ name: 'home', url: ENDPOINT }]);
  });
});

describe.skipIf(process.platform === 'win32')('a config whose secrets are recognised by their value, not their name', () => {
  it.each([
    [
      'Notion OPENAPI_MCP_HEADERS',
      {
        servers: [
          {
            name: 'notionApi',
            transport: 'stdio',
            command: 'npx',
            args: ['-y', '@notionhq/notion-mcp-server'],
            env: { OPENAPI_MCP_HEADERS: '{"Authorization": "Bearer ntn_SECRETNOTION1234567890", "Notion-Version": "2022-06-28"}' },
          },
        ],
      },
    ],
    [
      'a bearer token in a header of another name',
      {
        servers: [
          {
            name: 'hdr',
            transport: 'streamable-http',
            url: 'https://mcp.example.com/mcp',
            headers: { 'X-Custom': 'Bearer sk-live-SECRETHEADER123456' },
          },
        ],
      },
    ],
    [
      'an endpoint token in the path',
      {
        endpoints: [
          { id: 'e', name: 'home', url: 'wss://api.xiaozhi.me/mcp/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2VjcmV0LXNpZ25hdHVyZQ' },
        ],
        servers: [],
      },
    ],
  ])('%s: a save makes the file 600, and run warns while others can read it', async (_what, config) => {
    const dir = h.tempDir();
    const file = h.writeConfig(config, 'xiaozhi-tray.json', dir);
    fs.chmodSync(file, 0o644);
    // What run says at start. Before: nothing, and after the import the file stayed -rw-r--r--.
    expect(problemMessage(translator('en'), readableByOthers(file, file, loadConfigFile(file, {}).settings), undefined)?.message).toMatch(
      /holds tokens or keys, and other users of this computer can read it/,
    );
    const snippet = h.writeConfig({ command: 'node', args: ['x.js'] }, 'snippet.json', dir);
    const imported = await h.finished(['import', snippet, '--config', file, '--yes']);
    expect(imported.code).toBe(0);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  });

  it.skipIf(process.platform === 'win32')('the line a save makes the file 600 with reads in Chinese in a Chinese log page', async () => {
    // Before: "…xiaozhi-tray.json holds tokens or keys, and other users of this computer could read it (mode 644): it is now 600, for you only".
    const file = h.writeConfig(
      {
        endpoints: [{ id: 'e', name: 'home', url: 'wss://127.0.0.1:9/mcp/?token=eyJhbGciOiJIUzI1NiJ9.readable', enabled: false }],
        servers: [],
      },
      'xiaozhi-tray.json',
    );
    fs.chmodSync(file, 0o644);
    const said: { line: string; problem?: Problem }[] = [];
    const loaded = loadConfigFile(file, {});
    const store = storeFor(file, loaded, (line, problem) => said.push({ line, ...(problem ? { problem } : {}) }));
    store.save(loaded.settings);
    await store.settled?.();
    expect(said).toHaveLength(1);
    const { line, problem } = said[0]!;
    // The English (the JSON log's, the terminal's) is unchanged.
    expect(line).toMatch(/could read it \(mode 644\): it is now 600, for you only$/);
    expect(logMessage(translator('zh-CN'), { message: line, problem })).toBe(
      `配置文件 ${file} 里有令牌或密钥，这台电脑的其他用户原本能读取它：现在已改为只有你能读写。`,
    );
  });
});
